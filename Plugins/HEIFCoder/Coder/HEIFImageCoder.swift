import CHEIFShim
import WebImageCoding

/// HEIC and AVIF through libheif: the primary image with alpha, rotation and mirroring
/// applied as the file says (so the orientation is always `.up`), 10- and 12-bit sources as
/// RGBA16 on request, embedded thumbnails for thumbnail requests, and encoding (x265 for
/// HEIC, aom for AVIF) with quality, lossless mode and alpha.
///
/// HEVC is decoded by libde265 with two worker threads (see `Shim/HEVCDecoder/heif_hevc_decoder.c`);
/// 8-bit images are converted from YCbCr to RGB and interleaved into the host buffer on two
/// threads (see `heif_shim_convert.c`).
public struct HEIFImageCoder: ImageCoder {
    /// The plugin's name in its manifest and descriptor.
    public static let pluginName = "heif"
    /// The plugin's version in its manifest and descriptor.
    public static let pluginVersion = "1.0.0"
    /// HEIF with HEVC, and the generic HEIF brands.
    public static let heic = ImageFormat(
        name: "heic", mimeType: "image/heic", capabilities: [.decode, .encode, .scaleWhileDecoding])
    /// HEIF with AV1.
    public static let avif = ImageFormat(
        name: "avif", mimeType: "image/avif", capabilities: [.decode, .encode, .scaleWhileDecoding])

    public init() {}

    public var formats: [ImageFormat] { [Self.heic, Self.avif] }

    public func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool {
        HEIFBrands.matches(bytes)
    }

    public func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
        try HEIFReader(bytes, maxSide: Self.probeMaxSide).info.imageInfo
    }

    /// How many top-level images the file holds (thumbnails, grid tiles and auxiliary images
    /// such as alpha do not count). ``decode(_:request:)`` decodes the primary one.
    /// - Throws: ``ImageCodingError``.
    public static func topLevelImageCount(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        Int(try HEIFReader(bytes, maxSide: probeMaxSide).info.top_level_count)
    }

    /// Decodes the primary image, or for a thumbnail request the smallest embedded thumbnail
    /// that covers the box (the host scales it down the rest of the way). libheif cannot
    /// decode at a reduced size, so without such a thumbnail the full image is decoded.
    public func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
        let limit = UInt64(max(request.maxPixelCount, 0))
        let reader = try HEIFReader(bytes, maxSide: limit)
        if let box = request.thumbnailBox, box.width > 0, box.height > 0 {
            var width: UInt32 = 0
            var height: UInt32 = 0
            _ = heif_shim_use_thumbnail(
                reader.handle, UInt32(clamping: box.width), UInt32(clamping: box.height), &width, &height)
        }
        var decoded: OpaquePointer?
        var width: UInt32 = 0
        var height: UInt32 = 0
        var sixteenBit: Int32 = 0
        try ShimCall.heif.run {
            heif_shim_decode(
                reader.handle, request.pixelFormat == .rgba16, limit, &decoded, &width, &height,
                &sixteenBit, &$0)
        }
        defer { heif_shim_release(decoded) }
        let pixels = try request.makeBuffer(
            width: Int(width), height: Int(height), format: sixteenBit != 0 ? .rgba16 : .rgba8)
        heif_shim_copy(decoded!, pixels.baseAddress, pixels.bytesPerRow)
        let info = reader.info.imageInfo
        return DecodedImage(
            pixels: pixels, format: info.format, orientation: .up, sourceWidth: info.width,
            sourceHeight: info.height, traits: info.traits)
    }

    /// Encodes `heic` (x265) or `avif` (aom). Quality 0...1 maps to libheif's 0...100;
    /// `lossless` writes 4:4:4 with the identity (RGB) matrix; alpha is stored only when some
    /// pixel is not opaque; RGBA16 input is stored with 10-bit samples. libheif writes the file
    /// straight into memory from `request.allocator`.
    public func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
        guard request.format == Self.heic.name || request.format == Self.avif.name else {
            throw ImageCodingError(.invalidArgument, "the HEIF coder cannot encode '\(request.format)'")
        }
        let options = heif_shim_encode_options(
            av1: request.format == Self.avif.name ? 1 : 0,
            quality: Int32((min(max(request.quality, 0), 1) * 100).rounded()),
            lossless: request.lossless ? 1 : 0, keep_alpha: image.hasTranslucentPixels ? 1 : 0)
        return try ShimCall.heif.encode(into: request.allocator) { output, error in
            heif_shim_encode(
                image.baseAddress, UInt32(image.width), UInt32(image.height), image.bytesPerRow,
                image.format == .rgba16, options, &output, &error)
        }
    }

    /// libheif's per-side limit while probing: no pixels are allocated then.
    static let probeMaxSide = UInt64(Int32.max)
}

/// An open file: closes the shim reader when released.
final class HEIFReader {
    let handle: OpaquePointer
    let info: heif_shim_info

    /// Opens `bytes`, which must outlive the reader.
    init(_ bytes: UnsafeRawBufferPointer, maxSide: UInt64) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw ImageCodingError(.truncatedData, "truncated HEIF: the data is empty")
        }
        var reader: OpaquePointer?
        var info = heif_shim_info()
        try ShimCall.heif.run {
            heif_shim_open(base.assumingMemoryBound(to: UInt8.self), bytes.count, maxSide, &reader, &info, &$0)
        }
        self.handle = reader!
        self.info = info
    }

    deinit { heif_shim_close(handle) }
}
