/// A thumbnail request, as in SDWebImage's `thumbnailPixelSize` and
/// `preserveAspectRatio` context options.
public struct ThumbnailSize: Sendable, Hashable {
    /// Box width in pixels (as shown, after orientation); 0 for no limit.
    public var width: Int
    /// Box height in pixels (as shown, after orientation); 0 for no limit.
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
    /// A side of the box that is 0 (or less) does not limit: with aspect preservation it
    /// follows from the other side, without it stays the source's. A box of 0 × 0 is the source size.
    public func targetSize(sourceWidth: Int, sourceHeight: Int) -> (width: Int, height: Int) {
        guard width > 0 || height > 0, sourceWidth > 0, sourceHeight > 0 else { return (sourceWidth, sourceHeight) }
        // A side that does not limit is taken as at least the source's.
        let boxWidth = width > 0 ? width : sourceWidth
        let boxHeight = height > 0 ? height : sourceHeight
        if boxWidth >= sourceWidth && boxHeight >= sourceHeight { return (sourceWidth, sourceHeight) }
        guard preservesAspectRatio else { return (boxWidth, boxHeight) }
        // A fit never upscales, so each side of the box limits it as the source's side at most
        // (which keeps the products below from overflowing).
        let fitWidth = min(boxWidth, sourceWidth)
        let fitHeight = min(boxHeight, sourceHeight)
        // Compare fitWidth/sourceWidth with fitHeight/sourceHeight without rounding.
        if fitWidth * sourceHeight <= fitHeight * sourceWidth {
            let fittedHeight = (sourceHeight * fitWidth + sourceWidth / 2) / sourceWidth
            return (fitWidth, max(1, min(fittedHeight, sourceHeight)))
        } else {
            let fittedWidth = (sourceWidth * fitHeight + sourceHeight / 2) / sourceHeight
            return (max(1, min(fittedWidth, sourceWidth)), fitHeight)
        }
    }
}
