import CWebPShim
import WebImageCoding

extension WebPImageCoder {
    /// Encodes one image: lossy with `request.quality` (0...1 → libwebp's 0...100), or
    /// lossless with `request.lossless` (quality is then libwebp's effort; every pixel is
    /// kept exactly). Alpha is kept; RGBA16 is rounded to 8 bits. libwebp writes the file
    /// straight into memory from `request.allocator`.
    public func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
        try checkFormat(request)
        return try ShimCall.webp.encode(into: request.allocator) { output, error in
            webp_shim_encode(
                image.baseAddress, UInt32(clamping: image.width), UInt32(clamping: image.height), image.bytesPerRow,
                image.format == .rgba16, Self.encoding(request), &output, &error)
        }
    }

    /// Encodes frames of one size as an animation playing `request.loopCount` times
    /// (0 = forever), with the same settings as ``encode(_:request:)``. libwebp's animation
    /// encoder merges a frame identical to the one before into it (adding the durations).
    /// `WebPAnimEncoderAssemble` returns the file in libwebp's own memory, which this takes
    /// as it is; a plugin then copies it once into the host's memory.
    public func encodeAnimation(_ frames: [AnimationFrame], request: EncodeRequest) throws -> EncodedImageData {
        try checkFormat(request)
        guard let first = frames.first else {
            throw ImageCodingError(.invalidArgument, "an animation needs at least one frame")
        }
        guard frames.allSatisfy({ $0.image.width == first.image.width && $0.image.height == first.image.height })
        else { throw ImageCodingError(.invalidArgument, "all frames of a WebP animation must have the same size") }
        guard request.loopCount >= 0 else {
            throw ImageCodingError(.invalidArgument, "a loop count cannot be negative")
        }
        let shimFrames = frames.map {
            webp_shim_frame(
                pixels: $0.image.baseAddress, stride: $0.image.bytesPerRow,
                sixteen_bit: $0.image.format == .rgba16 ? 1 : 0,
                duration_ms: UInt32(clamping: $0.durationMilliseconds))
        }
        var output = webp_shim_output()
        try withExtendedLifetime(frames) {
            try ShimCall.webp.run {
                webp_shim_encode_animation(
                    shimFrames, UInt32(frames.count), UInt32(clamping: first.image.width),
                    UInt32(clamping: first.image.height), UInt32(clamping: request.loopCount), Self.encoding(request),
                    &output, &$0)
            }
        }
        return try Self.take(output)
    }

    func checkFormat(_ request: EncodeRequest) throws {
        guard request.format == Self.format.name else {
            throw ImageCodingError(.invalidArgument, "the WebP coder cannot encode '\(request.format)'")
        }
    }

    static func encoding(_ request: EncodeRequest) -> webp_shim_encoding {
        webp_shim_encoding(quality: Float(min(max(request.quality, 0), 1) * 100), lossless: request.lossless ? 1 : 0)
    }

    /// Takes ownership of the animation encoder's output (freed with webp_shim_free), without a copy.
    static func take(_ output: webp_shim_output) throws -> EncodedImageData {
        guard let bytes = output.bytes else { throw ImageCodingError(.internalError, "libwebp wrote no bytes") }
        return EncodedImageData(taking: bytes, count: output.size, deallocate: { webp_shim_free($0) })
    }
}
