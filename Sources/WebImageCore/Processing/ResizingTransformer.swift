/// Resizes an image to a size with a scale mode, as SDWebImage's resizing transformer.
///
/// Pixels are resampled by ``ImageResizer``: area averaging weighted by alpha (exact
/// partial coverage), which is a high-quality downscale and, when enlarging, repeats
/// pixels with blended seams.
///
/// Key: `Resize(WxH,MODE)` with MODE `fill`, `fit` or `fill-crop`, for example `Resize(800x600,fill-crop)`.
public struct ResizingTransformer: ImageTransformer {
    /// How the image is fitted to the size.
    public enum ScaleMode: String, Sendable, CaseIterable {
        /// Stretched to exactly the size; the aspect ratio may change.
        case fill
        /// Scaled to fit inside the size, centred on a transparent canvas of the size.
        case aspectFit = "fit"
        /// Scaled to cover the size, centred, the overflow cropped.
        case aspectFill = "fill-crop"
    }

    /// Output width in pixels.
    public let width: Int
    /// Output height in pixels.
    public let height: Int
    public let scaleMode: ScaleMode

    /// - Parameter scaleMode: default ``ScaleMode/aspectFill``.
    /// - Throws: ``ImageTransformError`` `.invalidParameter` unless both sizes are positive.
    public init(width: Int, height: Int, scaleMode: ScaleMode = .aspectFill) throws(ImageTransformError) {
        guard width > 0, height > 0 else {
            throw ImageTransformError(.invalidParameter, "a resize needs a positive size, not \(width)×\(height)")
        }
        self.width = width
        self.height = height
        self.scaleMode = scaleMode
    }

    public var transformerKey: String { "Resize(\(width)x\(height),\(scaleMode.rawValue))" }

    public func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        try TransformCanvas.checkSize(width: width, height: height, source: image)
        switch scaleMode {
        case .fill:
            return try resize(image, width: width, height: height)
        case .aspectFill:
            let (coveredWidth, coveredHeight) = coveredSize(imageWidth: image.width, imageHeight: image.height)
            if coveredWidth == image.width, coveredHeight == image.height {
                return try resize(image, width: width, height: height)
            }
            let region = TransformCanvas.view(
                of: image, x: (image.width - coveredWidth) / 2, y: (image.height - coveredHeight) / 2,
                width: coveredWidth, height: coveredHeight)
            return try withExtendedLifetime(image) { () throws(ImageTransformError) in
                if coveredWidth == width, coveredHeight == height { return try TransformCanvas.copy(region) }
                return try resize(region, width: width, height: height)
            }
        case .aspectFit:
            let (fittedWidth, fittedHeight) = fittedSize(imageWidth: image.width, imageHeight: image.height)
            let fitted = try resize(image, width: fittedWidth, height: fittedHeight)
            return try PaddingTransformer(width: width, height: height).transform(fitted)
        }
    }

    /// With ``ScaleMode/aspectFill``: the centred part of the image that covers the size.
    private func coveredSize(imageWidth: Int, imageHeight: Int) -> (width: Int, height: Int) {
        let scale = max(Double(width) / Double(imageWidth), Double(height) / Double(imageHeight))
        return (
            min(imageWidth, max(1, Int((Double(width) / scale).rounded()))),
            min(imageHeight, max(1, Int((Double(height) / scale).rounded())))
        )
    }

    /// With ``ScaleMode/aspectFit``: the size the image is scaled to inside the canvas.
    private func fittedSize(imageWidth: Int, imageHeight: Int) -> (width: Int, height: Int) {
        let scale = min(Double(width) / Double(imageWidth), Double(height) / Double(imageHeight))
        return (
            min(width, max(1, Int((Double(imageWidth) * scale).rounded()))),
            min(height, max(1, Int((Double(imageHeight) * scale).rounded())))
        )
    }

    /// The output and the resampler's scratch; with ``ScaleMode/aspectFit`` the scaled image
    /// too while it is copied onto the canvas.
    public func footprint(width imageWidth: Int, height imageHeight: Int, format: PixelFormat) -> TransformFootprint {
        guard imageWidth > 0, imageHeight > 0 else { return .unchanged(width: imageWidth, height: imageHeight) }
        var resampled = (width: width, height: height)
        var source = (width: imageWidth, height: imageHeight)
        switch scaleMode {
        case .fill: break
        case .aspectFill: source = coveredSize(imageWidth: imageWidth, imageHeight: imageHeight)
        case .aspectFit: resampled = fittedSize(imageWidth: imageWidth, imageHeight: imageHeight)
        }
        if resampled == (imageWidth, imageHeight) && resampled == (width, height) {
            return .unchanged(width: width, height: height)
        }
        let scratch =
            source == resampled
            ? 0
            : ImageResizer.scratchByteCount(
                sourceWidth: source.width, sourceHeight: source.height, width: resampled.width,
                height: resampled.height)
        let fitted =
            resampled == (width, height)
            ? 0
            : TransformFootprint.bytes(
                width: resampled.width, height: resampled.height, bytesPerPixel: format.bytesPerPixel)
        return .output(
            width: width, height: height, format: format, scratchByteCount: TransformFootprint.sum(scratch, fitted))
    }

    /// `image` resampled to `width` × `height`; `image` itself when it already has that size
    /// (callers never pass a borrowed view of that size).
    private func resize(_ image: PixelBuffer, width: Int, height: Int) throws(ImageTransformError) -> PixelBuffer {
        if image.width == width, image.height == height { return image }
        return try TransformCanvas.allocating { try ImageResizer.resize(image, width: width, height: height) }
    }
}
