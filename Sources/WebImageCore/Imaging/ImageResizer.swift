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

    /// Per output index: the first source index and the weights of the source indices it
    /// covers, stored flat (`weights[weightStart[i] ..< weightStart[i + 1]]`).
    struct AxisWeights {
        var firstIndex: [Int]
        var weightStart: [Int]
        var weights: [Float]

        init(sourceLength: Int, targetLength: Int) {
            let scale = Double(sourceLength) / Double(targetLength)
            firstIndex = []
            weightStart = [0]
            weights = []
            firstIndex.reserveCapacity(targetLength)
            weightStart.reserveCapacity(targetLength + 1)
            for index in 0..<targetLength {
                let start = Double(index) * scale
                let end = min(Double(index + 1) * scale, Double(sourceLength))
                let first = min(Int(start), sourceLength - 1)
                var position = first
                let before = weights.count
                while Double(position) < end && position < sourceLength {
                    let overlap = min(end, Double(position + 1)) - max(start, Double(position))
                    weights.append(Float(overlap / (end - start)))
                    position += 1
                }
                if weights.count == before { weights.append(1) }
                firstIndex.append(first)
                weightStart.append(weights.count)
            }
        }
    }

    private static func resample<Channel: FixedWidthInteger & UnsignedInteger>(
        _ source: PixelBuffer, into output: PixelBuffer, columns: AxisWeights, rows: AxisWeights,
        channel: Channel.Type
    ) {
        let maxValue = Float(Channel.max)
        let width = output.width
        // One source row resampled horizontally (premultiplied), summed into the output row's accumulator.
        var premultipliedRow = [Float](repeating: 0, count: width * 4)
        var accumulator = [Float](repeating: 0, count: width * 4)
        columns.firstIndex.withUnsafeBufferPointer { columnFirst in
            columns.weightStart.withUnsafeBufferPointer { columnStart in
                columns.weights.withUnsafeBufferPointer { columnWeights in
                    premultipliedRow.withUnsafeMutableBufferPointer { horizontal in
                        accumulator.withUnsafeMutableBufferPointer { sums in
                            for outputY in 0..<output.height {
                                sums.update(repeating: 0)
                                for weightIndex in rows.weightStart[outputY]..<rows.weightStart[outputY + 1] {
                                    let rowWeight = rows.weights[weightIndex]
                                    let sourceY = rows.firstIndex[outputY] + weightIndex - rows.weightStart[outputY]
                                    let sourceRow = UnsafePointer(
                                        source.row(sourceY).assumingMemoryBound(to: Channel.self))
                                    for outputX in 0..<width {
                                        var red: Float = 0
                                        var green: Float = 0
                                        var blue: Float = 0
                                        var alpha: Float = 0
                                        var pixel = sourceRow + columnFirst[outputX] * 4
                                        for columnWeight in columnStart[outputX]..<columnStart[outputX + 1] {
                                            let weightedAlpha = columnWeights[columnWeight] * Float(pixel[3])
                                            red += Float(pixel[0]) * weightedAlpha
                                            green += Float(pixel[1]) * weightedAlpha
                                            blue += Float(pixel[2]) * weightedAlpha
                                            alpha += weightedAlpha
                                            pixel += 4
                                        }
                                        horizontal[outputX * 4] = red
                                        horizontal[outputX * 4 + 1] = green
                                        horizontal[outputX * 4 + 2] = blue
                                        horizontal[outputX * 4 + 3] = alpha
                                    }
                                    for index in 0..<(width * 4) { sums[index] += horizontal[index] * rowWeight }
                                }
                                write(
                                    sums, into: output.row(outputY).assumingMemoryBound(to: Channel.self),
                                    width: width, maxValue: maxValue)
                            }
                        }
                    }
                }
            }
        }
    }

    /// `value` rounded to the nearest integer in 0...maxValue, as a channel.
    @inline(__always)
    private static func clamped<Channel: FixedWidthInteger & UnsignedInteger>(_ value: Float, maxValue: Float)
        -> Channel
    {
        Channel(truncatingIfNeeded: Int(min(maxValue, max(0, value)).rounded()))
    }

    /// Un-premultiplies one accumulated row and stores it with rounding.
    private static func write<Channel: FixedWidthInteger & UnsignedInteger>(
        _ sums: UnsafeMutableBufferPointer<Float>, into outputRow: UnsafeMutablePointer<Channel>, width: Int,
        maxValue: Float
    ) {
        for outputX in 0..<width {
            let alpha = sums[outputX * 4 + 3]
            if alpha <= 0 {
                for component in 0..<4 { outputRow[outputX * 4 + component] = 0 }
                continue
            }
            for component in 0..<3 {
                let value = sums[outputX * 4 + component] / alpha
                outputRow[outputX * 4 + component] = clamped(value, maxValue: maxValue)
            }
            outputRow[outputX * 4 + 3] = clamped(alpha, maxValue: maxValue)
        }
    }
}
