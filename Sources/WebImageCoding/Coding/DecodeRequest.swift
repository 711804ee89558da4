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
    /// The most bytes the decode may allocate in total (the output and the coder's own
    /// buffers); a header that needs more throws `.tooLarge` before the allocation. 0 = no
    /// limit. Default ``DecodeOptions/defaultMaxByteCount`` (1 GiB).
    public var maxByteCount: Int = DecodeOptions.defaultMaxByteCount
    /// When the work must stop with `.timedOut` (coders check it in their row and frame
    /// loops). Default nil (none).
    public var deadline: DecodeDeadline?
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

    /// Throws `.tooLarge` when a `width` × `height` output is over ``maxPixelCount``.
    /// - Throws: ``ImageCodingError`` `.tooLarge`.
    public func checkPixelCount(width: Int, height: Int) throws(ImageCodingError) {
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || (maxPixelCount > 0 && pixelCount > maxPixelCount) {
            throw ImageCodingError.tooLarge(width: width, height: height, limit: maxPixelCount)
        }
    }

    /// Allocates the output buffer after checking ``maxPixelCount`` and ``maxByteCount``.
    public func makeBuffer(width: Int, height: Int, format: PixelFormat) throws -> PixelBuffer {
        try checkPixelCount(width: width, height: height)
        let pixelCount = width * height
        try checkByteCount(pixelCount.multipliedReportingOverflow(by: format.bytesPerPixel), what: "the output")
        return try PixelBuffer(width: width, height: height, format: format, allocator: allocator)
    }

    /// Throws `.tooLarge` when `byteCount` (what the decode needs in total, as far as it is
    /// known) is over ``maxByteCount``; `what` names it in the message ("a 3000-pixel row").
    /// - Throws: ``ImageCodingError`` `.tooLarge`.
    public func checkByteCount(_ byteCount: (partialValue: Int, overflow: Bool), what: String) throws(ImageCodingError)
    {
        if byteCount.overflow || byteCount.partialValue < 0 {
            throw ImageCodingError(.tooLarge, "image too large: decoding \(what) needs more bytes than memory holds")
        }
        try checkByteCount(byteCount.partialValue, what: what)
    }

    /// Throws `.tooLarge` when `byteCount` is over ``maxByteCount``.
    /// - Throws: ``ImageCodingError`` `.tooLarge`.
    public func checkByteCount(_ byteCount: Int, what: String) throws(ImageCodingError) {
        if maxByteCount > 0 && byteCount > maxByteCount {
            throw ImageCodingError.tooManyBytes(byteCount, limit: maxByteCount, what: what)
        }
    }

    /// Throws `.timedOut` when ``deadline`` has passed.
    /// - Throws: ``ImageCodingError`` `.timedOut`.
    public func checkDeadline(_ progress: String = "") throws(ImageCodingError) {
        try deadline?.check(progress)
    }

    /// `deadline` as the plugin ABI's `deadline_ns` (0 = none).
    var deadlineNanoseconds: UInt64 { deadline?.monotonicNanoseconds ?? 0 }
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

    /// The error for a decode that needs `byteCount` bytes for `what`, over `limit`; the same
    /// wording as the ABI's `webimage_check_byte_limit`.
    public static func tooManyBytes(_ byteCount: Int, limit: Int, what: String) -> ImageCodingError {
        ImageCodingError(
            .tooLarge, "image too large: decoding \(what) needs \(byteCount) bytes, over the limit of \(limit) bytes")
    }
}
