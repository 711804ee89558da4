import WebImageCoding

/// An APNG written frame by frame: each frame is encoded by libpng as it is added and its
/// image data moved into the animation (as ``APNGWriter`` does), so the caller holds one
/// frame at a time. The frame count is announced up front (`acTL` comes before the first
/// frame), and frames are stored as RGBA, since a later frame may be translucent.
final class APNGStreamWriter: AnimationFrameEncoder {
    private let coder: PNGImageCoder
    private let width: Int
    private let height: Int
    private let frameCount: Int
    private let loopCount: Int
    private let output: EncodedImageWriter
    private var format: PixelFormat?
    private var added = 0
    private var sequence = 0

    init(coder: PNGImageCoder, width: Int, height: Int, frameCount: Int, request: EncodeRequest) throws {
        guard width > 0, height > 0, frameCount > 0 else {
            throw ImageCodingError(.invalidArgument, "an APNG needs a size and at least one frame")
        }
        self.coder = coder
        self.width = width
        self.height = height
        self.frameCount = frameCount
        loopCount = max(0, request.loopCount)
        output = EncodedImageWriter(allocator: request.allocator)
    }

    func add(_ frame: AnimationFrame) throws {
        guard added < frameCount else {
            throw ImageCodingError(.invalidArgument, "more than the \(frameCount) frames announced")
        }
        guard frame.image.width == width, frame.image.height == height else {
            throw ImageCodingError(.invalidArgument, "every frame of an APNG must have the same size")
        }
        guard format == nil || format == frame.image.format else {
            throw ImageCodingError(.invalidArgument, "every frame of an APNG must have the same pixel format")
        }
        format = frame.image.format
        let png = try coder.encodePNG(frame.image, keepsAlpha: true)
        let chunks = PNGChunks(png)
        if added == 0 {
            try output.append(png.prefix(8))
            try output.append(chunks.raw("IHDR"))
            try APNGWriter.writeChunk(
                "acTL", [APNGWriter.bigEndian(frameCount), APNGWriter.bigEndian(loopCount)], to: output)
        }
        try APNGWriter.writeChunk(
            "fcTL", [APNGWriter.bigEndian(sequence), APNGWriter.frameControl(frame)], to: output)
        sequence += 1
        for data in chunks.payloads("IDAT") {
            if added == 0 {
                try APNGWriter.writeChunk("IDAT", [data], to: output)
            } else {
                try APNGWriter.writeChunk("fdAT", [APNGWriter.bigEndian(sequence), data], to: output)
                sequence += 1
            }
        }
        added += 1
    }

    func finish() throws -> EncodedImageData {
        guard added == frameCount else {
            throw ImageCodingError(.invalidArgument, "\(added) of \(frameCount) frames were added")
        }
        try APNGWriter.writeChunk("IEND", [], to: output)
        return try output.finish()
    }
}

extension PNGImageCoder: StreamingAnimationCoder {
    /// A frame-by-frame APNG writer (``APNGStreamWriter``).
    public func encodesAnimationFrameByFrame(format: String) -> Bool { format == Self.format.name }

    public func makeAnimationEncoder(width: Int, height: Int, frameCount: Int, request: EncodeRequest) throws
        -> any AnimationFrameEncoder
    {
        guard request.format == Self.format.name else {
            throw ImageCodingError(.invalidArgument, "the PNG coder cannot encode '\(request.format)'")
        }
        return try APNGStreamWriter(coder: self, width: width, height: height, frameCount: frameCount, request: request)
    }
}
