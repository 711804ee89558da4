import WebImageCore

/// The stored-pixel box a thumbnail decode asks a coder for, computed the way
/// ``CodersManager/decode(_:options:)`` does, so a benchmark can give the reference
/// decoder the same job.
public enum ThumbnailPlan {
    /// The box in stored pixels, or nil when the thumbnail is the full image (no scaling).
    public static func storedBox(
        for thumbnail: ThumbnailSize, info: ImageInfo, appliesOrientation: Bool = true
    ) -> (width: Int, height: Int)? {
        let orientation = appliesOrientation ? info.orientation : .up
        let swaps = orientation.swapsWidthAndHeight
        let target = thumbnail.targetSize(
            sourceWidth: swaps ? info.height : info.width, sourceHeight: swaps ? info.width : info.height)
        let stored = swaps ? (width: target.height, height: target.width) : target
        return stored == (info.width, info.height) ? nil : stored
    }

    /// The DCT scale in eighths (1, 2, 4 or 8) the JPEG plugin decodes at for `box`: the
    /// smallest whose output still covers the box. Mirrors the plugin's rule, which is not
    /// part of the public API.
    public static func jpegScaleEighths(width: Int, height: Int, box: (width: Int, height: Int)?) -> Int {
        guard let box, box.width > 0, box.height > 0 else { return 8 }
        for eighths in [1, 2, 4]
        where (width * eighths + 7) / 8 >= box.width && (height * eighths + 7) / 8 >= box.height {
            return eighths
        }
        return 8
    }
}
