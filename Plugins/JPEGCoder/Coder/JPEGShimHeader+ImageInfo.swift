import CJPEGShim
import WebImageCoding

extension jpeg_shim_header {
    /// The header as ``ImageInfo``.
    var imageInfo: ImageInfo {
        var traits: ImageInfo.Traits = []
        if progressive != 0 { traits.insert(.progressive) }
        if components == 1 { traits.insert(.grayscale) }
        if cmyk != 0 { traits.insert(.cmyk) }
        return ImageInfo(
            format: JPEGImageCoder.format.name, width: Int(width), height: Int(height), frameCount: 1, loopCount: 0,
            orientation: ImageOrientation(exifValue: UInt32(orientation)), bitsPerComponent: 8, traits: traits)
    }
}
