import CPNGShim
import WebImageCoding

/// PNG through libpng: every colour type and bit depth, Adam7, tRNS; RGBA16 for 16-bit
/// sources when asked; thumbnails by row streaming; incremental decoding; encoding.
///
/// Decoded pixels equal libpng's own expansion to RGBA (palette → RGBA, gray → RGB,
/// tRNS → alpha, 16 → 8 bits with rounding, no gamma correction). Full-size decodes of
/// non-interlaced images inflate with libdeflate and unfilter in the shim (about twice as
/// fast), handing anything unexpected back to libpng's reader, whose errors they keep.
public struct PNGImageCoder: ProgressiveImageCoder, AnimatedImageCoder {
    /// The plugin's name in its manifest and descriptor.
    public static let pluginName = "png"
    /// The plugin's version in its manifest and descriptor.
    public static let pluginVersion = "1.0.0"
    public static let format = ImageFormat(
        name: "png", mimeType: "image/png",
        capabilities: [.decode, .encode, .incrementalDecode, .decodeAnimation, .encodeAnimation, .scaleWhileDecoding])
    /// zlib compression level used by ``encode(_:request:)`` (0...9). Default 6, libpng's own.
    public var compressionLevel: Int32

    public init(compressionLevel: Int32 = 6) {
        self.compressionLevel = compressionLevel
    }

    public var formats: [ImageFormat] { [Self.format] }

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 8 && zip(bytes.prefix(8), Self.signature).allSatisfy { $0 == $1 }
    }

    public func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
        try Self.info(headerInfo(bytes), animation: try? APNGStructure(bytes))
    }

    /// An APNG's animation; a PNG without `acTL` opens as one frame, its image.
    public func openAnimation(_ bytes: [UInt8]) throws -> any AnimatedImageSource {
        try bytes.withUnsafeBytes { raw in
            let header = try headerInfo(raw)
            guard let structure = try APNGStructure(raw) else {
                return StillImageAnimation(bytes: bytes, info: header)
            }
            return APNGAnimationSource(structure: structure, info: Self.info(header, animation: structure))
        }
    }

    /// What libpng reads from the header (signature, IHDR, chunks before the image data).
    private func headerInfo(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw Self.emptyInput }
        var header = png_shim_header()
        try ShimCall.png.run {
            png_shim_read_header(base.assumingMemoryBound(to: UInt8.self), bytes.count, &header, &$0)
        }
        return header.imageInfo
    }

    /// `header` with the frame count, loop count and `.animated` of an APNG's `animation`.
    private static func info(_ header: ImageInfo, animation: APNGStructure?) -> ImageInfo {
        guard let animation else { return header }
        var info = header
        info.frameCount = animation.frames.count
        info.loopCount = animation.loopCount
        if animation.frames.count > 1 { info.traits.insert(.animated) }
        return info
    }

    /// An APNG of `frames` (one size for all), with their durations and `request.loopCount`.
    /// The file is written straight into memory from `request.allocator`.
    public func encodeAnimation(_ frames: [AnimationFrame], request: EncodeRequest) throws -> EncodedImageData {
        guard request.format == Self.format.name else {
            throw ImageCodingError(.invalidArgument, "the PNG coder cannot encode '\(request.format)'")
        }
        return try APNGWriter(coder: self).write(frames, loopCount: request.loopCount, allocator: request.allocator)
    }

    public func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw Self.emptyInput }
        var reader: OpaquePointer?
        var header = png_shim_header()
        var sixteenBitOutput: Int32 = 0
        let wantsSixteen = request.pixelFormat == .rgba16
        try ShimCall.png.run {
            png_shim_open(
                base.assumingMemoryBound(to: UInt8.self), bytes.count, wantsSixteen, &reader, &header,
                &sixteenBitOutput, &$0)
        }
        defer { png_shim_close(reader) }
        let width = Int(header.width)
        let height = Int(header.height)
        let factor = Self.reductionFactor(width: width, height: height, box: request.thumbnailBox)
        let pixels: PixelBuffer
        if factor > 1 {
            var reducedWidth: UInt32 = 0
            var reducedHeight: UInt32 = 0
            png_shim_reduced_size(&header, UInt32(factor), &reducedWidth, &reducedHeight)
            let working = Int(clamping: png_shim_reduced_working_bytes(&header, UInt32(factor)))
            let output = Int(reducedWidth) * Int(reducedHeight) * 4
            try request.checkByteCount(working.addingReportingOverflow(output), what: "a row-streamed thumbnail")
            pixels = try request.makeBuffer(width: Int(reducedWidth), height: Int(reducedHeight), format: .rgba8)
            try ShimCall.png.run {
                png_shim_read_reduced(
                    reader!, UInt32(factor), pixels.baseAddress, pixels.bytesPerRow,
                    UInt64(max(0, request.maxByteCount)), request.deadline?.monotonicNanoseconds ?? 0, &$0)
            }
        } else {
            pixels = try request.makeBuffer(
                width: width, height: height, format: sixteenBitOutput != 0 ? .rgba16 : .rgba8)
            try ShimCall.png.run { png_shim_read_image(reader!, pixels.baseAddress, pixels.bytesPerRow, &$0) }
        }
        return DecodedImage(
            pixels: pixels, format: Self.format.name, orientation: .up, sourceWidth: width, sourceHeight: height,
            traits: header.imageInfo.traits)
    }

    /// The integer reduction for a thumbnail box: the largest factor that keeps both sides
    /// at least the box (1 = full size).
    static func reductionFactor(width: Int, height: Int, box: (width: Int, height: Int)?) -> Int {
        guard let box, box.width > 0, box.height > 0 else { return 1 }
        return max(1, min(width / box.width, height / box.height))
    }

    public func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
        guard request.format == Self.format.name else {
            throw ImageCodingError(.invalidArgument, "the PNG coder cannot encode '\(request.format)'")
        }
        return try encodedPNG(image, keepsAlpha: image.hasTranslucentPixels, allocator: request.allocator)
    }

    /// One PNG file of `image` as an array (the APNG writer takes its chunks from it).
    func encodePNG(_ image: PixelBuffer, keepsAlpha: Bool) throws -> [UInt8] {
        try encodedPNG(image, keepsAlpha: keepsAlpha, allocator: .system).bytes
    }

    /// One PNG file of `image`, stored as RGBA when `keepsAlpha`, else RGB; libpng writes it
    /// straight into memory from `allocator`.
    func encodedPNG(_ image: PixelBuffer, keepsAlpha: Bool, allocator: PixelAllocator) throws -> EncodedImageData {
        try ShimCall.png.encode(into: allocator) { output, error in
            png_shim_encode(
                image.baseAddress, UInt32(image.width), UInt32(image.height), image.bytesPerRow,
                image.format == .rgba16, keepsAlpha, compressionLevel, &output, &error)
        }
    }

    public func makeIncrementalDecoder(request: DecodeRequest) throws -> any IncrementalImageDecoder {
        try ShimIncrementalDecoder.png(request: request)
    }

    static let emptyInput = ImageCodingError(.truncatedData, "truncated PNG: the data is empty")
}
