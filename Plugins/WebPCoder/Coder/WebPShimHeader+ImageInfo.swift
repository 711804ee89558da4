import CWebPShim
import WebImageCoding

extension webp_shim_header {
    /// The header as ``ImageInfo``.
    var imageInfo: ImageInfo {
        var traits: ImageInfo.Traits = []
        if has_alpha != 0 { traits.insert(.hasAlpha) }
        if animated != 0 { traits.insert(.animated) }
        return ImageInfo(
            format: WebPImageCoder.format.name, width: Int(width), height: Int(height),
            frameCount: Int(max(frame_count, 1)), loopCount: Int(loop_count), orientation: .up, bitsPerComponent: 8,
            traits: traits)
    }

    /// Throws `.tooLarge` when the full canvas is over `request`'s pixel limit, or when it
    /// (4 bytes a pixel) and an output of `outputPixels` are over its byte limit.
    func checkFullSize(against request: DecodeRequest, outputPixels: Int) throws {
        let pixels = Int(width) * Int(height)
        if request.maxPixelCount > 0 && pixels > request.maxPixelCount {
            throw ImageCodingError.tooLarge(width: Int(width), height: Int(height), limit: request.maxPixelCount)
        }
        try request.checkByteCount((pixels + outputPixels) * 4, what: "a full-size plane")
    }
}
