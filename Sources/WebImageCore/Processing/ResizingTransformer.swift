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
            let scale = max(Double(width) / Double(image.width), Double(height) / Double(image.height))
            let coveredWidth = min(image.width, max(1, Int((Double(width) / scale).rounded())))
            let coveredHeight = min(image.height, max(1, Int((Double(height) / scale).rounded())))
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
            let scale = min(Double(width) / Double(image.width), Double(height) / Double(image.height))
            let fittedWidth = min(width, max(1, Int((Double(image.width) * scale).rounded())))
            let fittedHeight = min(height, max(1, Int((Double(image.height) * scale).rounded())))
            let fitted = try resize(image, width: fittedWidth, height: fittedHeight)
            if fittedWidth == width, fittedHeight == height { return fitted }
            let canvas = try TransformCanvas.make(width: width, height: height, like: image)
            TransformCanvas.clear(canvas)
            let left = (width - fittedWidth) / 2
            let top = (height - fittedHeight) / 2
            let rowBytes = fittedWidth * image.format.bytesPerPixel
            for y in 0..<fittedHeight {
                (canvas.row(top + y) + left * image.format.bytesPerPixel).copyMemory(
                    from: fitted.row(y), byteCount: rowBytes)
            }
            return canvas
        }
    }

    /// `image` resampled to `width` × `height`; `image` itself when it already has that size
    /// (callers never pass a borrowed view of that size).
    private func resize(_ image: PixelBuffer, width: Int, height: Int) throws(ImageTransformError) -> PixelBuffer {
        if image.width == width, image.height == height { return image }
        return try TransformCanvas.allocating { try ImageResizer.resize(image, width: width, height: height) }
    }
}
