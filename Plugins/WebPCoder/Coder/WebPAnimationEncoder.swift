import CWebPShim
import WebImageCoding

/// A WebP animation encoded frame by frame on libwebp's `WebPAnimEncoder` (which keeps the
/// previous canvases to choose each frame's encoding, never every frame), so the caller
/// holds one frame at a time. The file is handed over in libwebp's memory, as
/// ``WebPImageCoder/encodeAnimation(_:request:)`` does.
final class WebPAnimationEncoder: AnimationFrameEncoder {
    private let encoder: OpaquePointer
    private let width: Int
    private let height: Int

    init(width: Int, height: Int, frameCount: Int, request: EncodeRequest) throws {
        guard request.loopCount >= 0 else {
            throw ImageCodingError(.invalidArgument, "a loop count cannot be negative")
        }
        var made: OpaquePointer?
        try ShimCall.webp.run {
            webp_shim_animation_encoder_create(
                UInt32(clamping: width), UInt32(clamping: height), UInt32(clamping: frameCount),
                UInt32(clamping: request.loopCount), WebPImageCoder.encoding(request), &made, &$0)
        }
        encoder = made!
        self.width = width
        self.height = height
    }

    deinit { webp_shim_animation_encoder_destroy(encoder) }

    func add(_ frame: AnimationFrame) throws {
        guard frame.image.width == width, frame.image.height == height else {
            throw ImageCodingError(.invalidArgument, "all frames of a WebP animation must have the same size")
        }
        var shimFrame = webp_shim_frame(
            pixels: frame.image.baseAddress, stride: frame.image.bytesPerRow,
            sixteen_bit: frame.image.format == .rgba16 ? 1 : 0,
            duration_ms: UInt32(clamping: max(0, frame.durationMilliseconds)))
        try withExtendedLifetime(frame) {
            try ShimCall.webp.run { webp_shim_animation_encoder_add(encoder, &shimFrame, &$0) }
        }
    }

    func finish() throws -> EncodedImageData {
        var output = webp_shim_output()
        try ShimCall.webp.run { webp_shim_animation_encoder_finish(encoder, &output, &$0) }
        return try WebPImageCoder.take(output)
    }
}

extension WebPImageCoder: StreamingAnimationCoder {
    public func encodesAnimationFrameByFrame(format: String) -> Bool { format == Self.format.name }

    /// A frame-by-frame WebP animation encoder (``WebPAnimationEncoder``).
    public func makeAnimationEncoder(width: Int, height: Int, frameCount: Int, request: EncodeRequest) throws
        -> any AnimationFrameEncoder
    {
        try checkFormat(request)
        return try WebPAnimationEncoder(width: width, height: height, frameCount: frameCount, request: request)
    }
}
