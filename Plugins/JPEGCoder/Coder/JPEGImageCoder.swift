import CJPEGShim
import WebImageCoding

/// JPEG through libjpeg-turbo: baseline, progressive, grayscale, CMYK and YCCK; EXIF
/// orientation reported (the host applies it); thumbnails by DCT scaling; incremental
/// decoding; encoding with quality.
///
/// Full-size pixels equal `djpeg`'s default output from the same library (plus alpha 255).
public struct JPEGImageCoder: ProgressiveImageCoder {
    /// The plugin's name in its manifest and descriptor.
    public static let pluginName = "jpeg"
    /// The plugin's version in its manifest and descriptor.
    public static let pluginVersion = "1.0.0"
    public static let format = ImageFormat(
        name: "jpeg", mimeType: "image/jpeg",
        capabilities: [.decode, .encode, .incrementalDecode, .scaleWhileDecoding])

    public init() {}

    public var formats: [ImageFormat] { [Self.format] }

    public func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
    }

    public func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw Self.emptyInput }
        var header = jpeg_shim_header()
        try ShimCall.jpeg.run {
            jpeg_shim_read_header(base.assumingMemoryBound(to: UInt8.self), bytes.count, &header, &$0)
        }
        return header.imageInfo
    }

    public func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw Self.emptyInput }
        var header = jpeg_shim_header()
        var reader: OpaquePointer?
        var width: UInt32 = 0
        var height: UInt32 = 0
        try ShimCall.jpeg.run {
            jpeg_shim_open(
                base.assumingMemoryBound(to: UInt8.self), bytes.count, 8, &reader, &header, &width, &height, &$0)
        }
        defer { jpeg_shim_close(reader) }
        if let box = request.thumbnailBox, box.width > 0, box.height > 0 {
            let scale = jpeg_shim_scale_for_box(header.width, header.height, UInt32(box.width), UInt32(box.height))
            if scale != 8 { try ShimCall.jpeg.run { jpeg_shim_rescale(reader!, scale, &width, &height, &$0) } }
        }
        try request.checkPixelCount(width: Int(width), height: Int(height))
        let working = Int(clamping: jpeg_shim_working_bytes(reader!))
        try request.checkByteCount(
            working.addingReportingOverflow(Int(width) * Int(height) * 4), what: "a multi-scan JPEG's coefficients")
        let pixels = try request.makeBuffer(width: Int(width), height: Int(height), format: .rgba8)
        try ShimCall.jpeg.run {
            jpeg_shim_read_image(
                reader!, pixels.baseAddress, pixels.bytesPerRow, request.deadline?.monotonicNanoseconds ?? 0, &$0)
        }
        let info = header.imageInfo
        return DecodedImage(
            pixels: pixels, format: Self.format.name, orientation: info.orientation, sourceWidth: info.width,
            sourceHeight: info.height, traits: info.traits)
    }

    public func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
        guard request.format == Self.format.name else {
            throw ImageCodingError(.invalidArgument, "the JPEG coder cannot encode '\(request.format)'")
        }
        let quality = Int32((min(max(request.quality, 0), 1) * 100).rounded())
        return try ShimCall.jpeg.encode(into: request.allocator) { output, error in
            jpeg_shim_encode(
                image.baseAddress, UInt32(image.width), UInt32(image.height), image.bytesPerRow,
                image.format == .rgba16, max(1, quality), request.backgroundColor, &output, &error)
        }
    }

    public func makeIncrementalDecoder(request: DecodeRequest) throws -> any IncrementalImageDecoder {
        try ShimIncrementalDecoder.jpeg(request: request)
    }

    static let emptyInput = ImageCodingError(.truncatedData, "truncated JPEG: the data is empty")
}
