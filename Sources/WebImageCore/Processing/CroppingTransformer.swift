/// Cuts a rectangle out of an image; the rectangle is clipped to the image.
///
/// Key: `Crop(X,Y,W,H)` with the requested rectangle, for example `Crop(10,10,100,100)`.
public struct CroppingTransformer: ImageTransformer {
    /// Left edge in pixels from the image's left edge; may be negative.
    public let x: Int
    /// Top edge in pixels from the image's top edge; may be negative.
    public let y: Int
    /// Width in pixels, at least 1.
    public let width: Int
    /// Height in pixels, at least 1.
    public let height: Int

    /// - Throws: ``ImageTransformError`` `.invalidParameter` when the width or height is not positive.
    public init(x: Int, y: Int, width: Int, height: Int) throws(ImageTransformError) {
        guard width > 0, height > 0 else {
            throw ImageTransformError(.invalidParameter, "a crop needs a positive size, not \(width)×\(height)")
        }
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var transformerKey: String { "Crop(\(x),\(y),\(width),\(height))" }

    /// The rectangle clipped to an `imageWidth` × `imageHeight` image.
    private func clipped(imageWidth: Int, imageHeight: Int) -> (left: Int, top: Int, right: Int, bottom: Int) {
        (
            max(x, 0), max(y, 0), min(x.addingReportingOverflow(width).partialValue, imageWidth),
            min(y.addingReportingOverflow(height).partialValue, imageHeight)
        )
    }

    /// A copy of the clipped rectangle; nothing when it is the whole image (or empty, an error).
    public func footprint(width imageWidth: Int, height imageHeight: Int, format: PixelFormat) -> TransformFootprint {
        let (left, top, right, bottom) = clipped(imageWidth: imageWidth, imageHeight: imageHeight)
        guard left < right, top < bottom else { return .unchanged(width: 0, height: 0) }
        if left == 0, top == 0, right == imageWidth, bottom == imageHeight {
            return .unchanged(width: imageWidth, height: imageHeight)
        }
        return .output(width: right - left, height: bottom - top, format: format)
    }

    /// - Throws: ``ImageTransformError`` `.invalidParameter` when the rectangle lies
    ///   entirely outside the image (the crop would be empty).
    public func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        let (left, top, right, bottom) = clipped(imageWidth: image.width, imageHeight: image.height)
        guard left < right, top < bottom else {
            throw ImageTransformError(
                .invalidParameter,
                "the crop \(width)×\(height) at (\(x), \(y)) is empty on a \(image.width)×\(image.height) image")
        }
        if left == 0, top == 0, right == image.width, bottom == image.height { return image }
        let region = TransformCanvas.view(of: image, x: left, y: top, width: right - left, height: bottom - top)
        return try withExtendedLifetime(image) { () throws(ImageTransformError) in try TransformCanvas.copy(region) }
    }
}
