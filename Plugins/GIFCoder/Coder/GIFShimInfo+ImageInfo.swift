import CGIFShim
import WebImageCoding

extension gif_shim_info {
    /// The scan's findings as ``ImageInfo``.
    var imageInfo: ImageInfo {
        var traits: ImageInfo.Traits = [.indexed]
        if has_transparency != 0 { traits.insert(.hasAlpha) }
        if frame_count > 1 { traits.insert(.animated) }
        return ImageInfo(
            format: GIFImageCoder.format.name, width: Int(width), height: Int(height), frameCount: Int(frame_count),
            loopCount: Int(loop_count), orientation: .up, bitsPerComponent: 8, traits: traits)
    }
}
