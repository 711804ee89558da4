import WebImageCore

/// ``TestRawCoder`` whose animations claim one frame more than the file holds.
struct MiscountingAnimationCoder: RawCoderForwarding, AnimatedImageCoder {
    func openAnimation(_ bytes: [UInt8]) throws -> any AnimatedImageSource {
        Source(base: try TestRawCoder().openAnimation(bytes))
    }

    func encodeAnimation(_ frames: [AnimationFrame], request: EncodeRequest) throws -> EncodedImageData {
        try TestRawCoder().encodeAnimation(frames, request: request)
    }

    final class Source: AnimatedImageSource {
        let base: any AnimatedImageSource
        let info: ImageInfo

        init(base: any AnimatedImageSource) {
            self.base = base
            var info = base.info
            info.frameCount += 1
            self.info = info
        }

        func frameDuration(at index: Int) -> Int { base.frameDuration(at: index) }

        func decodeFrame(at index: Int, request: DecodeRequest) throws -> DecodedImage {
            try base.decodeFrame(at: index, request: request)
        }
    }
}
