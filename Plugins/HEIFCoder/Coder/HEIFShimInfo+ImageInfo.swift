import CHEIFShim
import WebImageCoding

extension heif_shim_info {
    /// The format name: `avif` for AV1 files, `heic` for the rest of the family.
    var formatName: String { is_av1 != 0 ? HEIFImageCoder.avif.name : HEIFImageCoder.heic.name }

    /// The header as ``ImageInfo``: the size as shown (libheif applies rotation and mirroring
    /// while decoding), so the orientation is always `.up`.
    var imageInfo: ImageInfo {
        var traits: ImageInfo.Traits = []
        if has_alpha != 0 { traits.insert(.hasAlpha) }
        if monochrome != 0 { traits.insert(.grayscale) }
        return ImageInfo(
            format: formatName, width: Int(width), height: Int(height), frameCount: 1, loopCount: 0,
            orientation: .up, bitsPerComponent: Int(bits_per_component), traits: traits)
    }
}
