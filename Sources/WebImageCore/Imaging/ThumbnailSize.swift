/// A thumbnail request, as in SDWebImage's `thumbnailPixelSize` and
/// `preserveAspectRatio` context options.
public struct ThumbnailSize: Sendable, Hashable {
    /// Box width in pixels (as shown, after orientation).
    public var width: Int
    /// Box height in pixels (as shown, after orientation).
    public var height: Int
    /// Keep the aspect ratio and fit inside the box (default true); when false the result
    /// is exactly the box.
    public var preservesAspectRatio: Bool

    public init(width: Int, height: Int, preservesAspectRatio: Bool = true) {
        self.width = width
        self.height = height
        self.preservesAspectRatio = preservesAspectRatio
    }

    /// The size of the thumbnail of a `sourceWidth` × `sourceHeight` image.
    ///
    /// Never upscales: when the box is at least the source size in both directions the
    /// source size is returned. With aspect preservation the result fits inside the box
    /// with the longer side touching it (each side at least 1 pixel); without, it is the box.
    public func targetSize(sourceWidth: Int, sourceHeight: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0, sourceWidth > 0, sourceHeight > 0 else { return (sourceWidth, sourceHeight) }
        if width >= sourceWidth && height >= sourceHeight { return (sourceWidth, sourceHeight) }
        guard preservesAspectRatio else { return (width, height) }
        // Compare width/sourceWidth with height/sourceHeight without rounding.
        if width * sourceHeight <= height * sourceWidth {
            let fittedHeight = (sourceHeight * width + sourceWidth / 2) / sourceWidth
            return (min(width, sourceWidth), max(1, min(fittedHeight, sourceHeight)))
        } else {
            let fittedWidth = (sourceWidth * height + sourceHeight / 2) / sourceHeight
            return (max(1, min(fittedWidth, sourceWidth)), min(height, sourceHeight))
        }
    }
}
