import Testing
import WebImageCoderVerifier
import WebImageCore

/// A "GIF" coder that trusts the header: it asks the host for a buffer of the declared
/// logical screen whatever the limits, opens every animation as one 16×16 frame, and never
/// fails, the flaws ``CoderVerifier``'s hostile-input checks are there to catch.
private struct HeaderTrustingCoder: AnimatedImageCoder {
    static let format = ImageFormat(name: "gif", mimeType: "image/gif", capabilities: [.decode, .decodeAnimation])

    var formats: [ImageFormat] { [Self.format] }

    func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool { bytes.starts(with: Array("GIF".utf8)) }

    func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
        ImageInfo(format: "gif", width: Int(bytes[6]) | Int(bytes[7]) << 8, height: Int(bytes[8]) | Int(bytes[9]) << 8)
    }

    /// Asks `request.allocator` for the declared screen (and gives it straight back, never
    /// touching it), then returns a 16×16 image.
    func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
        let info = try probe(bytes)
        if let block = request.allocator.allocate(info.width * info.height * 4, 64) {
            request.allocator.deallocate(block)
        }
        return DecodedImage(pixels: try PixelBuffer(width: 16, height: 16, format: .rgba8), format: "gif")
    }

    func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
        throw ImageCodingError(.unsupportedOperation, "no encoding")
    }

    func openAnimation(_ bytes: [UInt8]) throws -> any AnimatedImageSource {
        OneFrame(info: ImageInfo(format: "gif", width: 16, height: 16))
    }

    func encodeAnimation(_ frames: [AnimationFrame], request: EncodeRequest) throws -> EncodedImageData {
        throw ImageCodingError(.unsupportedOperation, "no encoding")
    }

    final class OneFrame: AnimatedImageSource {
        let info: ImageInfo
        init(info: ImageInfo) { self.info = info }
        func frameDuration(at index: Int) -> Int { 100 }
        func decodeFrame(at index: Int, request: DecodeRequest) throws -> DecodedImage {
            DecodedImage(pixels: try PixelBuffer(width: 16, height: 16, format: .rgba8), format: "gif")
        }
    }
}

/// ``CoderVerifier``'s hostile-input checks report a coder that sizes its buffers from the
/// header, ignores the limits on animation frames and misreports the frame count.
@Suite struct HostileInputVerifierTests {
    @Test func aCoderThatTrustsTheHeaderFailsTheHostileInputChecks() {
        var options = VerifierOptions()
        options.noiseSeeds = []
        let report = CoderVerifier.verify(coder: HeaderTrustingCoder(), fixtures: [], options: options)
        #expect(report.checksRun == 3)
        let bytes = 65535 * 65535 * 4
        #expect(
            report.failures.map(\.description) == [
                "hostile gif (65535x65535): hostile-size: thumbnail decode (64x64) asked the host for \(bytes) bytes, "
                    + "over the limit of 67108864 bytes",
                "hostile gif (65535x65535): hostile-size: decode asked the host for \(bytes) bytes, over the limit of "
                    + "67108864 bytes",
                "hostile gif (100 frames on 9999x9999): huge-animated-screen: the animation has 1 frames, not 100",
                "hostile gif (100 frames on 9999x9999): huge-animated-screen: frame 0 decoded to 16x16 under a pixel "
                    + "limit instead of failing",
                "hostile gif (100 frames on 9999x9999): huge-animated-screen: frame 0 decoded to 16x16 under a byte "
                    + "limit of 67108864 instead of failing",
                "hostile gif (1000 frames on 16x16): many-frames: probe reports 1 frames and the animation 1, not 1000",
            ])
    }

    @Test func theHostileInputChecksCanBeTurnedOff() {
        var options = VerifierOptions()
        options.checksHostileInputs = false
        #expect(CoderVerifier.verify(coder: HeaderTrustingCoder(), fixtures: [], options: options).checksRun == 0)
    }
}
