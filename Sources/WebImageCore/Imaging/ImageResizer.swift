/// Resizes pixel buffers by area averaging (a box filter with exact partial coverage).
///
/// Colour is averaged weighted by alpha, so transparent pixels do not darken edges.
/// Used to finish thumbnails after a decoder's cheaper reduction (DCT scaling, row
/// streaming) and to fit images to a maximum pixel size before encoding.
public enum ImageResizer {
    /// Returns a new `width` × `height` buffer in the same pixel format.
    /// - Throws: ``ImageCodingError`` when the buffer cannot be allocated.
    public static func resize(
        _ source: PixelBuffer, width: Int, height: Int, allocator: PixelAllocator = .system
    ) throws -> PixelBuffer {
        let output = try PixelBuffer(width: width, height: height, format: source.format, allocator: allocator)
        let columns = AxisWeights(sourceLength: source.width, targetLength: width)
        let rows = AxisWeights(sourceLength: source.height, targetLength: height)
        switch source.format {
        case .rgba8: resample(source, into: output, columns: columns, rows: rows, channel: UInt8.self)
        case .rgba16: resample(source, into: output, columns: columns, rows: rows, channel: UInt16.self)
        }
        return output
    }

    /// Per output index: the first source index and the weights of the source indices it covers.
    struct AxisWeights {
        var firstIndex: [Int]
        var weights: [[Float]]

        init(sourceLength: Int, targetLength: Int) {
            let scale = Double(sourceLength) / Double(targetLength)
            firstIndex = []
            weights = []
            firstIndex.reserveCapacity(targetLength)
            weights.reserveCapacity(targetLength)
            for index in 0..<targetLength {
                let start = Double(index) * scale
                let end = min(Double(index + 1) * scale, Double(sourceLength))
                let first = min(Int(start), sourceLength - 1)
                var covered: [Float] = []
                var position = first
                while Double(position) < end && position < sourceLength {
                    let overlap = min(end, Double(position + 1)) - max(start, Double(position))
                    covered.append(Float(overlap / (end - start)))
                    position += 1
                }
                if covered.isEmpty { covered = [1] }
                firstIndex.append(first)
                weights.append(covered)
            }
        }
    }

    private static func resample<Channel: FixedWidthInteger & UnsignedInteger>(
        _ source: PixelBuffer, into output: PixelBuffer, columns: AxisWeights, rows: AxisWeights,
        channel: Channel.Type
    ) {
        let maxValue = Float(Channel.max)
        // Horizontal pass into premultiplied float rows, cached per source row.
        var premultipliedRow = [Float](repeating: 0, count: output.width * 4)
        var accumulator = [Float](repeating: 0, count: output.width * 4)
        for outputY in 0..<output.height {
            for index in accumulator.indices { accumulator[index] = 0 }
            let rowWeights = rows.weights[outputY]
            for (offset, rowWeight) in rowWeights.enumerated() {
                let sourceY = rows.firstIndex[outputY] + offset
                let sourceRow = UnsafePointer(source.row(sourceY).assumingMemoryBound(to: Channel.self))
                for outputX in 0..<output.width {
                    var red: Float = 0
                    var green: Float = 0
                    var blue: Float = 0
                    var alpha: Float = 0
                    let first = columns.firstIndex[outputX]
                    for (columnOffset, weight) in columns.weights[outputX].enumerated() {
                        let pixel = sourceRow + (first + columnOffset) * 4
                        let weightedAlpha = weight * Float(pixel[3])
                        red += Float(pixel[0]) * weightedAlpha
                        green += Float(pixel[1]) * weightedAlpha
                        blue += Float(pixel[2]) * weightedAlpha
                        alpha += weightedAlpha
                    }
                    premultipliedRow[outputX * 4] = red
                    premultipliedRow[outputX * 4 + 1] = green
                    premultipliedRow[outputX * 4 + 2] = blue
                    premultipliedRow[outputX * 4 + 3] = alpha
                }
                for index in accumulator.indices { accumulator[index] += premultipliedRow[index] * rowWeight }
            }
            let outputRow = output.row(outputY).assumingMemoryBound(to: Channel.self)
            for outputX in 0..<output.width {
                let alpha = accumulator[outputX * 4 + 3]
                if alpha <= 0 {
                    for component in 0..<4 { outputRow[outputX * 4 + component] = 0 }
                    continue
                }
                for component in 0..<3 {
                    let value = accumulator[outputX * 4 + component] / alpha
                    outputRow[outputX * 4 + component] = Channel(min(maxValue, max(0, value.rounded())))
                }
                outputRow[outputX * 4 + 3] = Channel(min(maxValue, max(0, alpha.rounded())))
            }
        }
    }
}
