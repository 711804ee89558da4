/// What a coder is asked to decode: the low-level request that crosses the plugin ABI.
///
/// Users normally go through ``CodersManager/decode(_:options:)`` with ``DecodeOptions``,
/// which picks the coder, finishes thumbnails and applies orientation.
public struct DecodeRequest: Sendable {
    /// Preferred output; ``PixelFormat/rgba16`` is honoured only for sources with more
    /// than 8 bits per channel. Default ``PixelFormat/rgba8``.
    public var pixelFormat: PixelFormat = .rgba8
    /// Thumbnail box in stored pixels, or nil for full size. The coder may return any
    /// size from the box's fit up to the full size; the caller finishes the resize.
    public var thumbnailBox: (width: Int, height: Int)?
    /// The most pixels (width × height) the coder may allocate for the output;
    /// beyond that it throws `.tooLarge` before allocating. Default 100 megapixels.
    public var maxPixelCount: Int = DecodeOptions.defaultMaxPixelCount
    /// Decode only the first frame of an animation. Default false.
    public var firstFrameOnly = false
    /// Where the output pixels are allocated. Default ``PixelAllocator/system``.
    public var allocator: PixelAllocator = .system

    public init(
        pixelFormat: PixelFormat = .rgba8, thumbnailBox: (width: Int, height: Int)? = nil,
        maxPixelCount: Int = DecodeOptions.defaultMaxPixelCount, firstFrameOnly: Bool = false,
        allocator: PixelAllocator = .system
    ) {
        self.pixelFormat = pixelFormat
        self.thumbnailBox = thumbnailBox
        self.maxPixelCount = maxPixelCount
        self.firstFrameOnly = firstFrameOnly
        self.allocator = allocator
    }

    /// Allocates the output buffer after checking ``maxPixelCount``.
    public func makeBuffer(width: Int, height: Int, format: PixelFormat) throws -> PixelBuffer {
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || (maxPixelCount > 0 && pixelCount > maxPixelCount) {
            throw ImageCodingError.tooLarge(width: width, height: height, limit: maxPixelCount)
        }
        return try PixelBuffer(width: width, height: height, format: format, allocator: allocator)
    }
}

extension DecodeRequest {
    /// A new buffer (limit checked, from ``allocator``) holding a copy of `height` rows of
    /// `width` pixels that start `stride` bytes apart at `source`: how incremental decoders
    /// hand out the image so far while they keep decoding into their own canvas.
    public func makeBuffer(
        copying source: UnsafeRawPointer, stride: Int, width: Int, height: Int, format: PixelFormat
    ) throws -> PixelBuffer {
        let buffer = try makeBuffer(width: width, height: height, format: format)
        let rowBytes = width * format.bytesPerPixel
        for y in 0..<height {
            buffer.row(y).copyMemory(from: source + y * stride, byteCount: rowBytes)
        }
        return buffer
    }
}

extension ImageCodingError {
    /// The error for an output of `width` × `height` pixels over `limit`.
    public static func tooLarge(width: Int, height: Int, limit: Int) -> ImageCodingError {
        ImageCodingError(
            .tooLarge,
            "image too large: \(width)×\(height) pixels exceed the limit of \(limit) pixels"
        )
    }
}
