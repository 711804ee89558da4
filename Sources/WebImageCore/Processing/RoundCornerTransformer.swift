/// Rounds the corners of an image and optionally draws a border along its edge, as
/// SDWebImage's round-corner transformer: outside the rounded corners is transparent, and
/// the border (``borderWidth`` pixels wide, inside the edge, following the rounded
/// corners) is composited over the image. Edges are antialiased by pixel coverage.
///
/// Key: `RoundCorner(RADIUS,CORNERS)` without a border and
/// `RoundCorner(RADIUS,CORNERS,WIDTH,#RRGGBBAA)` with one; CORNERS is `all`, `none`, or the
/// rounded corners joined by `+` (`top-left+bottom-right`). Example: `RoundCorner(12,all,2,#FF0000FF)`.
public struct RoundCornerTransformer: ImageTransformer {
    /// Which corners are rounded.
    public struct Corners: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let topLeft = Corners(rawValue: 1 << 0)
        public static let topRight = Corners(rawValue: 1 << 1)
        public static let bottomLeft = Corners(rawValue: 1 << 2)
        public static let bottomRight = Corners(rawValue: 1 << 3)
        public static let all: Corners = [.topLeft, .topRight, .bottomLeft, .bottomRight]

        /// The form keys use.
        var keyName: String {
            if self == .all { return "all" }
            let names: [(Corners, String)] = [
                (.topLeft, "top-left"), (.topRight, "top-right"), (.bottomLeft, "bottom-left"),
                (.bottomRight, "bottom-right"),
            ]
            let chosen = names.filter { contains($0.0) }.map(\.1)
            return chosen.isEmpty ? "none" : chosen.joined(separator: "+")
        }
    }

    /// Corner radius in pixels; limited to half the shorter side when the image is smaller.
    public let radius: Double
    public let corners: Corners
    /// Border width in pixels; 0 (the default) draws no border.
    public let borderWidth: Double
    /// Border colour; default opaque black.
    public let borderColor: RGBAColor

    /// - Throws: ``ImageTransformError`` `.invalidParameter` when the radius or the border
    ///   width is negative or not finite.
    public init(
        radius: Double, corners: Corners = .all, borderWidth: Double = 0, borderColor: RGBAColor = .black
    ) throws(ImageTransformError) {
        guard radius.isFinite, radius >= 0 else {
            throw ImageTransformError(.invalidParameter, "a corner radius must be 0 or more, not \(radius)")
        }
        guard borderWidth.isFinite, borderWidth >= 0 else {
            throw ImageTransformError(.invalidParameter, "a border width must be 0 or more, not \(borderWidth)")
        }
        self.radius = radius
        self.corners = corners
        self.borderWidth = borderWidth
        self.borderColor = borderColor
    }

    public var transformerKey: String {
        let shape = "\(TransformerKeyNumber.format(radius)),\(corners.keyName)"
        guard borderWidth > 0 else { return "RoundCorner(\(shape))" }
        return "RoundCorner(\(shape),\(TransformerKeyNumber.format(borderWidth)),\(borderColor))"
    }

    public func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        let output = try TransformCanvas.copy(image)
        switch image.format {
        case .rgba8: shape(output, channel: UInt8.self)
        case .rgba16: shape(output, channel: UInt16.self)
        }
        return output
    }

    /// Recomputes, in place, the pixels near the edges that a corner or the border touches;
    /// the others keep the copied values.
    @_specialize(where Channel == UInt8)
    @_specialize(where Channel == UInt16)
    private func shape<Channel: FixedWidthInteger & UnsignedInteger>(_ buffer: PixelBuffer, channel: Channel.Type) {
        let geometry = Geometry(
            width: Double(buffer.width), height: Double(buffer.height), corners: corners,
            radius: min(radius, Double(min(buffer.width, buffer.height)) / 2))
        let maxValue = Float(Channel.max)
        let border = PremultipliedPixels.premultiplied(borderColor.channels(maxValue: maxValue), maxValue: maxValue)
        let borderOpacity = Float(borderColor.alpha) / 255
        let band = min(Int(max(geometry.radius, borderWidth + 1).rounded(.up)) + 1, max(buffer.width, buffer.height))
        var pixel = SIMD4<Float>.zero
        for y in 0..<buffer.height {
            let row = buffer.row(y).assumingMemoryBound(to: Channel.self)
            let wholeRow = y < band || y >= buffer.height - band || 2 * band >= buffer.width
            let ranges =
                wholeRow
                ? [0..<buffer.width] : [0..<min(band, buffer.width), max(buffer.width - band, 0)..<buffer.width]
            for range in ranges {
                for x in range {
                    let inside = geometry.distanceInside(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    let outer = Float(min(max(inside + 0.5, 0), 1))
                    let inner = Float(min(max(inside - borderWidth + 0.5, 0), 1))
                    let borderCoverage = borderWidth > 0 ? outer - inner : 0
                    if outer == 1, borderCoverage == 0 { continue }
                    let image = PremultipliedPixels.premultiplied(UnsafePointer(row + x * 4))
                    pixel = border * borderCoverage + image * (outer * (1 - borderOpacity * borderCoverage))
                    PremultipliedPixels.store(&pixel, count: 1, into: row + x * 4)
                }
            }
        }
    }

    /// The rounded rectangle covering the image, in pixel units (pixel centres at +0.5).
    private struct Geometry {
        let width: Double
        let height: Double
        let corners: Corners
        let radius: Double

        /// Distance from the point to the shape's outline, positive inside.
        func distanceInside(x: Double, y: Double) -> Double {
            let left = x < radius
            let top = y < radius
            let right = x > width - radius
            let bottom = y > height - radius
            let corner: Corners? =
                top && left
                ? .topLeft
                : top && right
                    ? .topRight
                    : bottom && left
                        ? .bottomLeft
                        : bottom && right ? .bottomRight : nil
            if let corner, corners.contains(corner) {
                let centreX = left ? radius : width - radius
                let centreY = top ? radius : height - radius
                return radius - ((x - centreX) * (x - centreX) + (y - centreY) * (y - centreY)).squareRoot()
            }
            return min(x, width - x, y, height - y)
        }
    }
}
