import Dispatch

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

    /// The output's size for a `width` × `height` input: the same, or with ``fitsSize`` the
    /// rotated image's bounding box.
    private func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        guard fitsSize else { return (width, height) }
        let (cosine, sine) = cosineAndSine
        let sourceWidth = Double(width)
        let sourceHeight = Double(height)
        return (
            Self.wholePixels(sourceWidth * abs(cosine) + sourceHeight * abs(sine)),
            Self.wholePixels(sourceWidth * abs(sine) + sourceHeight * abs(cosine))
        )
    }

    /// The output and one premultiplied row (16 bytes a pixel) per thread.
    public func footprint(width: Int, height: Int, format: PixelFormat) -> TransformFootprint {
        guard cosineAndSine.cosine != 1 else { return .unchanged(width: width, height: height) }
        let size = outputSize(width: width, height: height)
        let row = TransformFootprint.bytes(
            width: size.width, height: 1, bytesPerPixel: MemoryLayout<SIMD4<Float>>.stride)
        return .output(
            width: size.width, height: size.height, format: format,
            scratchByteCount: TransformFootprint.times(row, TransformFootprint.concurrentTasks))
    }

    public func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        let (cosine, sine) = cosineAndSine
        if cosine == 1 { return image }
        let (width, height) = outputSize(width: image.width, height: image.height)
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
    private struct Sampler: Sendable {
        let cosine: Float
        let sine: Float
        let sourceCentre: SIMD2<Float>
        let outputCentre: SIMD2<Float>

        /// For each output pixel centre: the source point it shows (inverse rotation),
        /// sampled bilinearly from the four nearest source pixels, premultiplied, with
        /// pixels outside the source counting as transparent. Bands of rows run on several
        /// threads, all finished before this returns.
        @_specialize(where Channel == UInt8)
        @_specialize(where Channel == UInt16)
        func render<Channel: FixedWidthInteger & UnsignedInteger & SendableMetatype>(
            _ source: PixelBuffer, into output: PixelBuffer, channel: Channel.Type
        ) {
            let bands = (output.height + Self.rowsPerBand - 1) / Self.rowsPerBand
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: output.width)
                defer { row.deallocate() }
                for outputY in (band * Self.rowsPerBand)..<min(output.height, (band + 1) * Self.rowsPerBand) {
                    for outputX in 0..<output.width {
                        row[outputX] = sample(source, outputX: outputX, outputY: outputY, channel: Channel.self)
                    }
                    PremultipliedPixels.store(
                        row, count: output.width, into: output.row(outputY).assumingMemoryBound(to: Channel.self))
                }
            }
        }

        /// Output rows per task.
        private static let rowsPerBand = 16

        /// The premultiplied value output pixel (`outputX`, `outputY`) shows.
        @inline(__always)
        private func sample<Channel: FixedWidthInteger & UnsignedInteger>(
            _ source: PixelBuffer, outputX: Int, outputY: Int, channel: Channel.Type
        ) -> SIMD4<Float> {
            let dx = Float(outputX) + 0.5 - outputCentre.x
            let dy = Float(outputY) + 0.5 - outputCentre.y
            // Source position in pixel-index units (pixel centres at whole numbers).
            let u = dx * cosine - dy * sine + sourceCentre.x - 0.5
            let v = dx * sine + dy * cosine + sourceCentre.y - 0.5
            guard u >= -1, v >= -1, u < Float(source.width), v < Float(source.height) else { return .zero }
            // Both are at least -1, so shifting by one and truncating rounds down.
            let x0 = Int(u + 1) - 1
            let y0 = Int(v + 1) - 1
            let fractionX = u - Float(x0)
            let fractionY = v - Float(y0)
            var sum = SIMD4<Float>.zero
            if y0 >= 0 {
                sum +=
                    horizontalPair(source, y: y0, x0: x0, fractionX: fractionX, channel: Channel.self) * (1 - fractionY)
            }
            if y0 + 1 < source.height, fractionY > 0 {
                sum +=
                    horizontalPair(source, y: y0 + 1, x0: x0, fractionX: fractionX, channel: Channel.self) * fractionY
            }
            return sum
        }

        /// Pixels `x0` and `x0 + 1` of row `y`, premultiplied and mixed by `fractionX`;
        /// pixels outside the row count as transparent.
        @inline(__always)
        private func horizontalPair<Channel: FixedWidthInteger & UnsignedInteger>(
            _ source: PixelBuffer, y: Int, x0: Int, fractionX: Float, channel: Channel.Type
        ) -> SIMD4<Float> {
            let row = UnsafePointer(source.row(y).assumingMemoryBound(to: Channel.self))
            var pair = SIMD4<Float>.zero
            if x0 >= 0 { pair += PremultipliedPixels.premultiplied(row + x0 * 4) * (1 - fractionX) }
            if x0 + 1 < source.width, fractionX > 0 {
                pair += PremultipliedPixels.premultiplied(row + (x0 + 1) * 4) * fractionX
            }
            return pair
        }
    }
}
