import CGIFShim
import WebImageCoding

/// A GIF encoded frame by frame: giflib quantises and writes each frame as it is added, so
/// the caller holds one frame at a time. The file grows in the shim's memory and is copied
/// once into the request's allocator when finished.
final class GIFAnimationEncoder: AnimationFrameEncoder {
    private let encoder: OpaquePointer
    private let width: Int
    private let height: Int
    private let allocator: PixelAllocator

    init(width: Int, height: Int, frameCount: Int, request: EncodeRequest) throws {
        var made: OpaquePointer?
        try ShimCall.gif.run {
            gif_shim_encoder_create(
                UInt32(clamping: width), UInt32(clamping: height), UInt32(clamping: frameCount),
                UInt32(clamping: max(0, request.loopCount)), &made, &$0)
        }
        encoder = made!
        self.width = width
        self.height = height
        allocator = request.allocator
    }

    deinit { gif_shim_encoder_destroy(encoder) }

    func add(_ frame: AnimationFrame) throws {
        guard frame.image.width == width, frame.image.height == height else {
            throw ImageCodingError(.invalidArgument, "every frame of a GIF must have the same size")
        }
        let image = try frame.image.eightBit()
        var shimFrame = gif_shim_frame(
            pixels: image.baseAddress, stride: image.bytesPerRow,
            duration_ms: UInt32(clamping: max(0, frame.durationMilliseconds)))
        try withExtendedLifetime(image) { try ShimCall.gif.run { gif_shim_encoder_add(encoder, &shimFrame, &$0) } }
    }

    func finish() throws -> EncodedImageData {
        var bytes: UnsafePointer<UInt8>?
        var size = 0
        try ShimCall.gif.run { gif_shim_encoder_finish(encoder, &bytes, &size, &$0) }
        let writer = EncodedImageWriter(allocator: allocator)
        try writer.append(UnsafeRawBufferPointer(start: bytes, count: size))
        return try writer.finish()
    }
}

extension GIFImageCoder: StreamingAnimationCoder {
    /// A frame-by-frame GIF encoder (the frames quantised as ``encodeAnimation(_:request:)`` does).
    public func encodesAnimationFrameByFrame(format: String) -> Bool { format == Self.format.name }

    public func makeAnimationEncoder(width: Int, height: Int, frameCount: Int, request: EncodeRequest) throws
        -> any AnimationFrameEncoder
    {
        guard request.format == Self.format.name else {
            throw ImageCodingError(.invalidArgument, "the GIF coder cannot encode '\(request.format)'")
        }
        return try GIFAnimationEncoder(width: width, height: height, frameCount: frameCount, request: request)
    }
}
