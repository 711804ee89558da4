/// Pads an image to at least a size with a colour, the image centred (as imgproxy's
/// `extend`): a side the image already reaches is left as it is, nothing is cut or scaled.
///
/// Key: `Pad(WxH,#RRGGBBAA)`, for example `Pad(300x200,#00000000)`.
public struct PaddingTransformer: ImageTransformer {
    /// The least output width in pixels; 0 keeps the image's width.
    public let width: Int
    /// The least output height in pixels; 0 keeps the image's height.
    public let height: Int
    /// The colour of the added pixels.
    public let color: RGBAColor

    /// - Parameter color: default transparent black.
    /// - Throws: ``ImageTransformError`` `.invalidParameter` when a side is negative.
    public init(width: Int, height: Int, color: RGBAColor = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
        throws(ImageTransformError)
    {
        guard width >= 0, height >= 0 else {
            throw ImageTransformError(.invalidParameter, "padding needs a size of at least 0, not \(width)×\(height)")
        }
        self.width = width
        self.height = height
        self.color = color
    }

    public var transformerKey: String { "Pad(\(width)x\(height),\(color))" }

    /// The output: the image's size grown to ``width`` × ``height`` where it is smaller.
    private func paddedSize(imageWidth: Int, imageHeight: Int) -> (width: Int, height: Int) {
        (max(width, imageWidth), max(height, imageHeight))
    }

    /// The padded output; nothing when the image already reaches the size.
    public func footprint(width imageWidth: Int, height imageHeight: Int, format: PixelFormat) -> TransformFootprint {
        let padded = paddedSize(imageWidth: imageWidth, imageHeight: imageHeight)
        if padded == (imageWidth, imageHeight) { return .unchanged(width: imageWidth, height: imageHeight) }
        return .output(width: padded.width, height: padded.height, format: format)
    }

    public func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        let padded = paddedSize(imageWidth: image.width, imageHeight: image.height)
        if padded == (image.width, image.height) { return image }
        let canvas = try TransformCanvas.make(width: padded.width, height: padded.height, like: image)
        fill(canvas)
        let left = (padded.width - image.width) / 2
        let top = (padded.height - image.height) / 2
        let bytesPerPixel = image.format.bytesPerPixel
        for y in 0..<image.height {
            (canvas.row(top + y) + left * bytesPerPixel).copyMemory(
                from: image.row(y), byteCount: image.width * bytesPerPixel)
        }
        return canvas
    }

    /// Sets every pixel of `canvas` to ``color``.
    private func fill(_ canvas: PixelBuffer) {
        let channels = [color.red, color.green, color.blue, color.alpha]
        let pixel: [UInt8] =
            switch canvas.format {
            case .rgba8: channels
            // Each channel widened exactly (× 257), in native byte order.
            case .rgba16: channels.flatMap { channel in withUnsafeBytes(of: UInt16(channel) * 257) { Array($0) } }
            }
        let rowBytes = canvas.width * pixel.count
        pixel.withUnsafeBytes { pattern in
            for y in 0..<canvas.height {
                let row = canvas.row(y)
                for offset in stride(from: 0, to: rowBytes, by: pattern.count) {
                    (row + offset).copyMemory(from: pattern.baseAddress!, byteCount: pattern.count)
                }
            }
        }
    }
}
