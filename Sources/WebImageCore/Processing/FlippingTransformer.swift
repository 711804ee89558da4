/// Mirrors an image horizontally (left ↔ right) and/or vertically (top ↔ bottom).
///
/// Key: `Flip(h)`, `Flip(v)`, `Flip(hv)`, or `Flip(none)` when neither is set (the
/// output then equals the input).
public struct FlippingTransformer: ImageTransformer {
    public let horizontal: Bool
    public let vertical: Bool

    public init(horizontal: Bool, vertical: Bool) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public var transformerKey: String {
        let axes = (horizontal ? "h" : "") + (vertical ? "v" : "")
        return "Flip(\(axes.isEmpty ? "none" : axes))"
    }

    public func footprint(width: Int, height: Int, format: PixelFormat) -> TransformFootprint {
        horizontal || vertical
            ? .output(width: width, height: height, format: format) : .unchanged(width: width, height: height)
    }

    public func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        guard horizontal || vertical else { return image }
        let output = try TransformCanvas.make(width: image.width, height: image.height, like: image)
        switch image.format {
        case .rgba8: flip(image, into: output, pixel: UInt32.self)
        case .rgba16: flip(image, into: output, pixel: UInt64.self)
        }
        return output
    }

    /// Copies whole pixels (one `Pixel` each), rows in reverse order for a vertical flip and
    /// pixels in reverse order for a horizontal one.
    private func flip<Pixel: FixedWidthInteger>(_ source: PixelBuffer, into output: PixelBuffer, pixel: Pixel.Type) {
        let width = source.width
        for y in 0..<source.height {
            let sourceY = vertical ? source.height - 1 - y : y
            let sourceRow = source.row(sourceY).assumingMemoryBound(to: Pixel.self)
            let outputRow = output.row(y).assumingMemoryBound(to: Pixel.self)
            if horizontal {
                for x in 0..<width { outputRow[x] = sourceRow[width - 1 - x] }
            } else {
                outputRow.update(from: sourceRow, count: width)
            }
        }
    }
}
