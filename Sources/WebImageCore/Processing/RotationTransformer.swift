#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Rotates an image about its centre by an angle, as SDWebImage's rotation transformer.
///
/// Positive angles turn counter-clockwise as shown. With ``fitsSize`` the canvas grows to
/// hold the whole rotated image (each side rounded up to whole pixels); without it the
/// canvas keeps the input's size and the corners that leave it are cut off. Uncovered
/// canvas is transparent. Pixels are sampled bilinearly in premultiplied space; multiples
/// of 90° move pixels without resampling.
///
/// Key: `Rotate(DEGREES)` or `Rotate(DEGREES,fit)` with the angle reduced to 0 ..< 360,
/// for example `Rotate(45,fit)`; `-90` gives `Rotate(270)`.
public struct RotationTransformer: ImageTransformer {
    /// Counter-clockwise angle in degrees.
    public let degrees: Double
    /// Grow the canvas to hold the rotated image; default true.
    public let fitsSize: Bool

    /// - Throws: ``ImageTransformError`` `.invalidParameter` when the angle is not finite.
    public init(degrees: Double, fitsSize: Bool = true) throws(ImageTransformError) {
        guard degrees.isFinite else {
            throw ImageTransformError(.invalidParameter, "a rotation angle must be finite, not \(degrees)")
        }
        self.degrees = degrees
        self.fitsSize = fitsSize
    }

    /// The angle reduced to 0 ..< 360 degrees.
    private var normalizedDegrees: Double {
        let reduced = degrees.truncatingRemainder(dividingBy: 360)
        let positive = reduced < 0 ? reduced + 360 : reduced
        return positive == 360 ? 0 : positive
    }

    public var transformerKey: String {
        "Rotate(\(TransformerKeyNumber.format(normalizedDegrees))\(fitsSize ? ",fit" : ""))"
    }

    /// Cosine and sine of the angle, exact for multiples of 90°.
    private var cosineAndSine: (cosine: Double, sine: Double) {
        let angle = normalizedDegrees
        switch angle {
        case 0: return (1, 0)
        case 90: return (0, 1)
        case 180: return (-1, 0)
        case 270: return (0, -1)
        default:
            let radians = angle * .pi / 180
            return (cos(radians), sin(radians))
        }
    }

    public func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        let (cosine, sine) = cosineAndSine
        if cosine == 1 { return image }
        var width = image.width
        var height = image.height
        if fitsSize {
            let sourceWidth = Double(image.width)
            let sourceHeight = Double(image.height)
            width = Self.wholePixels(sourceWidth * abs(cosine) + sourceHeight * abs(sine))
            height = Self.wholePixels(sourceWidth * abs(sine) + sourceHeight * abs(cosine))
        }
        let output = try TransformCanvas.make(width: width, height: height, like: image)
        let sampler = Sampler(
            cosine: Float(cosine), sine: Float(sine),
            sourceCentre: SIMD2(Float(image.width) / 2, Float(image.height) / 2),
            outputCentre: SIMD2(Float(width) / 2, Float(height) / 2))
        switch image.format {
        case .rgba8: sampler.render(image, into: output, channel: UInt8.self)
        case .rgba16: sampler.render(image, into: output, channel: UInt16.self)
        }
        return output
    }

    /// `length` rounded up to whole pixels, ignoring rounding noise of the trigonometry.
    private static func wholePixels(_ length: Double) -> Int {
        max(1, Int((length - 1e-6).rounded(.up)))
    }

    /// Maps output pixels back into the source and samples it.
    private struct Sampler {
        let cosine: Float
        let sine: Float
        let sourceCentre: SIMD2<Float>
        let outputCentre: SIMD2<Float>

        /// For each output pixel centre: the source point it shows (inverse rotation),
        /// sampled bilinearly from the four nearest source pixels, premultiplied, with
        /// pixels outside the source counting as transparent.
        @_specialize(where Channel == UInt8)
        @_specialize(where Channel == UInt16)
        func render<Channel: FixedWidthInteger & UnsignedInteger>(
            _ source: PixelBuffer, into output: PixelBuffer, channel: Channel.Type
        ) {
            let sourceWidth = source.width
            let sourceHeight = source.height
            var row = [SIMD4<Float>](repeating: .zero, count: output.width)
            var tap = SIMD4<Float>.zero
            for outputY in 0..<output.height {
                let dy = Float(outputY) + 0.5 - outputCentre.y
                for outputX in 0..<output.width {
                    let dx = Float(outputX) + 0.5 - outputCentre.x
                    // Source position in pixel-index units (pixel centres at whole numbers).
                    let u = dx * cosine - dy * sine + sourceCentre.x - 0.5
                    let v = dx * sine + dy * cosine + sourceCentre.y - 0.5
                    let left = u.rounded(.down)
                    let top = v.rounded(.down)
                    guard left >= -1, top >= -1, left < Float(sourceWidth), top < Float(sourceHeight) else {
                        row[outputX] = .zero
                        continue
                    }
                    let fractionX = u - left
                    let fractionY = v - top
                    let x0 = Int(left)
                    let y0 = Int(top)
                    var sum = SIMD4<Float>.zero
                    for (sampleY, weightY) in [(y0, 1 - fractionY), (y0 + 1, fractionY)]
                    where weightY > 0 && sampleY >= 0 && sampleY < sourceHeight {
                        let sourceRow = UnsafePointer(source.row(sampleY).assumingMemoryBound(to: Channel.self))
                        for (sampleX, weightX) in [(x0, 1 - fractionX), (x0 + 1, fractionX)]
                        where weightX > 0 && sampleX >= 0 && sampleX < sourceWidth {
                            PremultipliedPixels.load(sourceRow + sampleX * 4, count: 1, into: &tap)
                            sum += tap * (weightX * weightY)
                        }
                    }
                    row[outputX] = sum
                }
                row.withUnsafeBufferPointer { pixels in
                    PremultipliedPixels.store(
                        pixels.baseAddress!, count: pixels.count,
                        into: output.row(outputY).assumingMemoryBound(to: Channel.self))
                }
            }
        }
    }
}
