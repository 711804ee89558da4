import CWebPShim
import WebImageCoding

/// WebP through libwebp: lossy, lossless and alpha (RGBA8, straight alpha), thumbnails by
/// libwebp's own rescaler, animations composited as libwebp's `WebPAnimDecoder` does,
/// incremental decoding, encoding (lossy with quality, lossless, animated).
///
/// Still images decode straight into the host's buffer; full-size pixels equal
/// `WebPDecodeRGBA`'s output.
public struct WebPImageCoder: ProgressiveImageCoder, AnimatedImageCoder {
    /// The plugin's name in its manifest and descriptor.
    public static let pluginName = "webp"
    /// The plugin's version in its manifest and descriptor.
    public static let pluginVersion = "1.0.0"
    public static let format = ImageFormat(
        name: "webp", mimeType: "image/webp",
        capabilities: [
            .decode, .encode, .incrementalDecode, .decodeAnimation, .encodeAnimation, .scaleWhileDecoding,
        ])

    public init() {}

    public var formats: [ImageFormat] { [Self.format] }

    public func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool {
        webp_shim_is_webp(bytes.bytePointer, bytes.count)
    }

    public func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
        var header = webp_shim_header()
        try ShimCall.webp.run { webp_shim_read_header(bytes.bytePointer, bytes.count, true, &header, &$0) }
        return header.imageInfo
    }

    /// Decodes a still image, or the first frame of an animation.
    ///
    /// With a thumbnail box a still image is scaled by libwebp to the box (each side
    /// clamped to the full size; the rescaler scales each axis on its own), so the host has
    /// nothing left to resize. The pixel limit counts the output, and also the full size
    /// when libwebp keeps a full-size plane while decoding (lossless, alpha, animations).
    public func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
        guard let base = bytes.bytePointer else { throw Self.emptyInput }
        var header = webp_shim_header()
        try ShimCall.webp.run { webp_shim_read_header(base, bytes.count, false, &header, &$0) }
        var width: UInt32 = 0
        var height: UInt32 = 0
        let box = request.thumbnailBox
        webp_shim_output_size(
            &header, UInt32(clamping: box?.width ?? 0), UInt32(clamping: box?.height ?? 0), &width, &height)
        if header.needs_full_size_memory != 0 {
            try header.checkFullSize(against: request, outputPixels: Int(width) * Int(height))
        }
        let pixels = try request.makeBuffer(width: Int(width), height: Int(height), format: .rgba8)
        try ShimCall.webp.run {
            webp_shim_decode(base, bytes.count, width, height, pixels.baseAddress, pixels.bytesPerRow, &$0)
        }
        return DecodedImage(
            pixels: pixels, format: Self.format.name, orientation: .up, sourceWidth: Int(header.width),
            sourceHeight: Int(header.height), traits: header.imageInfo.traits)
    }

    public func makeIncrementalDecoder(request: DecodeRequest) throws -> any IncrementalImageDecoder {
        try ShimIncrementalDecoder.webp(request: request)
    }

    public func openAnimation(_ bytes: [UInt8]) throws -> any AnimatedImageSource {
        try WebPAnimationSource(bytes)
    }

    static let emptyInput = ImageCodingError(.truncatedData, "truncated WebP: the data is empty")
}
