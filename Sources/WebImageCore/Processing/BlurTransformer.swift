import Dispatch

/// Blurs an image with a Gaussian of standard deviation ``radius`` pixels (the meaning
/// Pillow's `GaussianBlur` and libvips' `gaussblur` give it), approximated by three box
/// filters per axis (see ``BoxBlurPass``), in premultiplied space so transparent areas
/// never darken the colours next to them. Beyond the edges the edge pixels repeat.
///
/// Rows, then strips of columns, are filtered on several threads at once; all of them
/// finish before `transform` returns.
///
/// Key: `Blur(RADIUS)`, for example `Blur(10)` or `Blur(2.5)`.
public struct BlurTransformer: ImageTransformer {
    /// Standard deviation of the Gaussian in pixels; 0 leaves the image unchanged.
    public let radius: Double

    /// - Throws: ``ImageTransformError`` `.invalidParameter` when the radius is negative or not finite.
    public init(radius: Double) throws(ImageTransformError) {
        guard radius.isFinite, radius >= 0 else {
            throw ImageTransformError(.invalidParameter, "a blur radius must be 0 or more, not \(radius)")
        }
        self.radius = radius
    }

    public var transformerKey: String { "Blur(\(TransformerKeyNumber.format(radius)))" }

    /// Columns per strip in the vertical phase: 32 premultiplied pixels are 512 bytes a row.
    private static let stripWidth = 32
    /// Rows per task in the horizontal phase.
    private static let rowsPerTask = 16
    /// Box passes per axis.
    private static let passCount = 3

    /// The output, the premultiplied float image between the two phases (16 bytes a pixel)
    /// and each thread's rows or column strip.
    public func footprint(width: Int, height: Int, format: PixelFormat) -> TransformFootprint {
        guard radius > 0 else { return .unchanged(width: width, height: height) }
        let floatPixel = MemoryLayout<SIMD4<Float>>.stride
        let lanes = min(Self.stripWidth, width)
        let perTask = max(
            TransformFootprint.bytes(width: width, height: 2, bytesPerPixel: floatPixel),
            TransformFootprint.bytes(
                width: lanes, height: TransformFootprint.sum(height, height, 1), bytesPerPixel: floatPixel))
        return .output(
            width: width, height: height, format: format,
            scratchByteCount: TransformFootprint.sum(
                TransformFootprint.bytes(width: width, height: height, bytesPerPixel: floatPixel),
                TransformFootprint.times(perTask, TransformFootprint.concurrentTasks)))
    }

    public func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        guard radius > 0 else { return image }
        let pass = BoxBlurPass(variance: radius * radius / Double(Self.passCount))
        let output = try TransformCanvas.make(width: image.width, height: image.height, like: image)
        switch image.format {
        case .rgba8: blur(image, into: output, pass: pass, channel: UInt8.self)
        case .rgba16: blur(image, into: output, pass: pass, channel: UInt16.self)
        }
        return output
    }

    /// Horizontal passes row by row into a premultiplied float image, then vertical passes
    /// strip by strip, each strip stored straight into `output`.
    @_specialize(where Channel == UInt8)
    @_specialize(where Channel == UInt16)
    private func blur<Channel: FixedWidthInteger & UnsignedInteger & SendableMetatype>(
        _ source: PixelBuffer, into output: PixelBuffer, pass: BoxBlurPass, channel: Channel.Type
    ) {
        let width = source.width
        let height = source.height
        let intermediate = IntermediateImage(pixels: .allocate(capacity: width * height))
        defer { intermediate.pixels.deallocate() }
        let rowTasks = (height + Self.rowsPerTask - 1) / Self.rowsPerTask
        DispatchQueue.concurrentPerform(iterations: rowTasks) { task in
            let scratch = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width * 2)
            defer { scratch.deallocate() }
            let first = scratch
            let second = scratch + width
            for y in (task * Self.rowsPerTask)..<min(height, (task + 1) * Self.rowsPerTask) {
                PremultipliedPixels.load(
                    UnsafePointer(source.row(y).assumingMemoryBound(to: Channel.self)), count: width, into: first)
                pass.apply(first, to: second, length: width)
                pass.apply(second, to: first, length: width)
                pass.apply(first, to: intermediate.pixels + y * width, length: width)
            }
        }
        let stripWidth = Self.stripWidth
        let stripTasks = (width + stripWidth - 1) / stripWidth
        DispatchQueue.concurrentPerform(iterations: stripTasks) { task in
            let left = task * stripWidth
            let lanes = min(stripWidth, width - left)
            let scratch = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: height * lanes * 2 + lanes)
            defer { scratch.deallocate() }
            let first = scratch
            let second = scratch + height * lanes
            let sums = scratch + height * lanes * 2
            for y in 0..<height {
                (first + y * lanes).update(from: intermediate.pixels + y * width + left, count: lanes)
            }
            pass.apply(first, to: second, length: height, lanes: lanes, sums: sums)
            pass.apply(second, to: first, length: height, lanes: lanes, sums: sums)
            pass.apply(first, to: second, length: height, lanes: lanes, sums: sums)
            for y in 0..<height {
                PremultipliedPixels.store(
                    second + y * lanes, count: lanes,
                    into: output.row(y).assumingMemoryBound(to: Channel.self) + left * 4)
            }
        }
    }

    /// The horizontally filtered image shared by the tasks; each task writes its own rows
    /// in the first phase and reads its own columns in the second, so no two touch the same
    /// pixel at once.
    private struct IntermediateImage: @unchecked Sendable {
        let pixels: UnsafeMutablePointer<SIMD4<Float>>
    }
}
