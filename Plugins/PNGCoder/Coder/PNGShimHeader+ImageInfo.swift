import CPNGShim
import WebImageCoding

extension png_shim_header {
    /// The header as ``ImageInfo``.
    var imageInfo: ImageInfo {
        var traits: ImageInfo.Traits = []
        if has_alpha != 0 { traits.insert(.hasAlpha) }
        if interlaced != 0 { traits.insert(.interlaced) }
        if color_type == 3 { traits.insert(.indexed) }
        if color_type & 2 == 0 && color_type != 3 { traits.insert(.grayscale) }
        return ImageInfo(
            format: PNGImageCoder.format.name, width: Int(width), height: Int(height), frameCount: 1, loopCount: 0,
            orientation: .up, bitsPerComponent: Int(bit_depth), traits: traits)
    }
}
