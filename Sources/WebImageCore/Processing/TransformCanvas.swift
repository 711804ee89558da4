/// Output buffers of transformers.
enum TransformCanvas {
    /// Most pixels a transformer allocates for an output that is larger than its input:
    /// the host's default decode limit, 100 megapixels.
    static let maxGrownPixelCount = DecodeOptions.defaultMaxPixelCount

    /// A new uninitialised `width` × `height` buffer in `source`'s format.
    /// - Throws: ``ImageTransformError`` `.tooLarge` when the output has more pixels than
    ///   both `source` and ``maxGrownPixelCount``, `.outOfMemory` when allocation fails.
    static func make(width: Int, height: Int, like source: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        try checkSize(width: width, height: height, source: source)
        return try allocating { try PixelBuffer(width: width, height: height, format: source.format) }
    }

    /// Checks that a `width` × `height` output of `source` may be allocated.
    /// - Throws: ``ImageTransformError`` `.tooLarge` when it has more pixels than both
    ///   `source` and ``maxGrownPixelCount``.
    static func checkSize(width: Int, height: Int, source: PixelBuffer) throws(ImageTransformError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= max(maxGrownPixelCount, source.width * source.height) else {
            throw ImageTransformError(
                .tooLarge, "a \(width)×\(height) output exceeds the limit of \(maxGrownPixelCount) pixels")
        }
    }

    /// Runs `body`, which allocates pixels, turning its ``ImageCodingError`` into an ``ImageTransformError``.
    static func allocating(_ body: () throws -> PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        do {
            return try body()
        } catch let error as ImageCodingError {
            throw ImageTransformError(error.kind == .tooLarge ? .tooLarge : .outOfMemory, error.message)
        } catch {
            throw ImageTransformError(.outOfMemory, "\(error)")
        }
    }

    /// A copy of `source` in new memory.
    static func copy(_ source: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        let output = try make(width: source.width, height: source.height, like: source)
        let rowBytes = source.width * source.format.bytesPerPixel
        for y in 0..<source.height { output.row(y).copyMemory(from: source.row(y), byteCount: rowBytes) }
        return output
    }

    /// A buffer that borrows the `width` × `height` rectangle of `source` at (`x`, `y`)
    /// without copying; `source` must outlive it.
    static func view(of source: PixelBuffer, x: Int, y: Int, width: Int, height: Int) -> PixelBuffer {
        precondition(x >= 0 && y >= 0 && x + width <= source.width && y + height <= source.height)
        return PixelBuffer(
            adopting: source.row(y) + x * source.format.bytesPerPixel, width: width, height: height,
            bytesPerRow: source.bytesPerRow, format: source.format, deallocate: nil)
    }

    /// Sets every byte of `buffer`'s pixels to zero (transparent black).
    static func clear(_ buffer: PixelBuffer) {
        let rowBytes = buffer.width * buffer.format.bytesPerPixel
        for y in 0..<buffer.height { buffer.row(y).initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes) }
    }
}
