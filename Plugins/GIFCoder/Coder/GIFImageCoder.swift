import CGIFShim
import WebImageCoding

/// GIF through giflib: static and animated, composited as browsers show them (disposal
/// none / background / previous, transparency, interlacing, local colour tables, frames
/// smaller than the canvas), lazy frame decoding, incremental decoding, encoding of
/// static and animated GIFs with giflib's quantiser.
public struct GIFImageCoder: ProgressiveImageCoder, AnimatedImageCoder {
    /// The plugin's name in its manifest and descriptor.
    public static let pluginName = "gif"
    /// The plugin's version in its manifest and descriptor.
    public static let pluginVersion = "1.0.0"
    public static let format = ImageFormat(
        name: "gif", mimeType: "image/gif",
        capabilities: [.decode, .encode, .incrementalDecode, .decodeAnimation, .encodeAnimation])

    public init() {}

    public var formats: [ImageFormat] { [Self.format] }

    public func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 6 else { return false }
        let signature = Array(bytes.prefix(6))
        return signature == Array("GIF89a".utf8) || signature == Array("GIF87a".utf8)
    }

    /// The header and the frames found; a file cut inside a frame reports the frames complete so far.
    public func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
        try GIFFile(reading: bytes, keeping: nil, allowPartial: true, maxPixelCount: 0).info.imageInfo
    }

    /// The first frame. A file that ends inside any frame is `.truncatedData`.
    public func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
        let file = try GIFFile(
            reading: bytes, keeping: nil, allowPartial: false, maxPixelCount: request.maxPixelCount)
        return try file.decodeFrame(0, request: request)
    }

    /// Reads `bytes` in place (pinned, not copied) for the animation's life.
    public func openAnimation(_ bytes: [UInt8]) throws -> any AnimatedImageSource {
        try GIFAnimationSource(GIFFile(PinnedBytes(bytes), allowPartial: true, maxPixelCount: 0))
    }

    /// Reads `bytes` in place; the caller keeps them until the animation is released.
    public func openAnimation(reading bytes: UnsafeRawBufferPointer) throws -> any AnimatedImageSource {
        try GIFAnimationSource(GIFFile(reading: bytes, keeping: nil, allowPartial: true, maxPixelCount: 0))
    }

    public func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
        try encodeAnimation([AnimationFrame(image: image, durationMilliseconds: 0)], request: request)
    }

    /// Frames must share one size; `request.loopCount` is stored when there is more than one frame.
    public func encodeAnimation(_ frames: [AnimationFrame], request: EncodeRequest) throws -> EncodedImageData {
        guard request.format == Self.format.name else {
            throw ImageCodingError(.invalidArgument, "the GIF coder cannot encode '\(request.format)'")
        }
        guard let first = frames.first else { throw ImageCodingError(.invalidArgument, "no frames to encode") }
        guard frames.allSatisfy({ $0.image.width == first.image.width && $0.image.height == first.image.height })
        else { throw ImageCodingError(.invalidArgument, "every frame of a GIF must have the same size") }
        let images = try frames.map { try $0.image.eightBit() }
        var shimFrames = zip(images, frames).map { image, frame in
            gif_shim_frame(
                pixels: image.baseAddress, stride: image.bytesPerRow,
                duration_ms: UInt32(clamping: max(0, frame.durationMilliseconds)))
        }
        return try withExtendedLifetime(images) {
            try ShimCall.gif.encode(into: request.allocator) { output, error in
                gif_shim_encode(
                    &shimFrames, UInt32(shimFrames.count), UInt32(first.image.width), UInt32(first.image.height),
                    UInt32(clamping: max(0, request.loopCount)), &output, &error)
            }
        }
    }

    public func makeIncrementalDecoder(request: DecodeRequest) throws -> any IncrementalImageDecoder {
        GIFIncrementalDecoder(request: request)
    }
}
