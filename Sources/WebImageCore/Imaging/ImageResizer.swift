import CWebImageImaging
import Dispatch

/// Resizes pixel buffers by area averaging (a box filter with exact partial coverage).
///
/// Colour is averaged weighted by alpha, so transparent pixels do not darken edges.
/// Used to finish thumbnails after a decoder's cheaper reduction (DCT scaling, row
/// streaming) and to fit images to a maximum pixel size before encoding.
public enum ImageResizer {
    /// Returns a new `width` × `height` buffer in the same pixel format.
    ///
    /// With a `deadline` (a thumbnail finished after a decode), every output row first checks
    /// it, and a resize still running when it passes stops with `.timedOut`. Default nil.
    /// - Throws: ``ImageCodingError`` when the buffer cannot be allocated, `.timedOut` past
    ///   the deadline.
    public static func resize(
        _ source: PixelBuffer, width: Int, height: Int, allocator: PixelAllocator = .system,
        deadline: DecodeDeadline? = nil
    ) throws -> PixelBuffer {
        let output = try PixelBuffer(width: width, height: height, format: source.format, allocator: allocator)
        let columns = AxisWeights(sourceLength: source.width, targetLength: width)
        let rows = AxisWeights(sourceLength: source.height, targetLength: height)
        resample(source, into: output, columns: columns, rows: rows, deadline: deadline)
        try deadline?.check("while resizing \(source.width)×\(source.height) to \(width)×\(height)")
        return output
    }

    /// An upper bound of the bytes ``resize(_:width:height:allocator:deadline:)`` holds
    /// besides its output when resampling `sourceWidth` × `sourceHeight` to `width` ×
    /// `height`: the weights of both axes (two indices and at most `source / target + 2`
    /// weights an output index) and each band's ring of filtered rows and its sums (16
    /// bytes an output pixel), for up to ``maximumBandCount`` bands. `Int.max` on overflow.
    static func scratchByteCount(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) -> Int {
        func axis(_ source: Int, _ target: Int) -> Int {
            let weightsPerIndex = source / max(1, target) + 2
            return TransformFootprint.bytes(
                width: max(0, target) + 1, height: 1,
                bytesPerPixel: 2 * MemoryLayout<Int>.stride + weightsPerIndex * MemoryLayout<Float>.stride)
        }
        let ringRows = sourceHeight / max(1, height) + 3
        let band = TransformFootprint.bytes(
            width: width, height: ringRows, bytesPerPixel: 4 * MemoryLayout<Float>.stride)
        return TransformFootprint.sum(
            axis(sourceWidth, width), axis(sourceHeight, height), TransformFootprint.times(band, maximumBandCount))
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

        /// Calls `body` with the storage of ``firstIndex``, ``weightStart`` and ``weights``, for
        /// the C row loops.
        func withPointers<Result>(
            _ body: (UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Float>) -> Result
        ) -> Result {
            firstIndex.withUnsafeBufferPointer { firstIndex in
                weightStart.withUnsafeBufferPointer { weightStart in
                    weights.withUnsafeBufferPointer { weights in
                        body(firstIndex.baseAddress!, weightStart.baseAddress!, weights.baseAddress!)
                    }
                }
            }
        }
    }

    /// Resamples with each source row filtered horizontally once (premultiplied, four floats
    /// a pixel, by `webimage_resample_filter`) and kept in a small ring while the output rows
    /// that cover it are summed; the arithmetic per lane is the same as a plain per-channel
    /// loop. Bands of output rows run on several threads, each with its own ring (a source row
    /// on a band boundary is filtered by both bands, with the same result), all finished before
    /// this returns. A band stops at the first output row that finds `deadline` passed (the
    /// caller then throws).
    private static func resample(
        _ source: PixelBuffer, into output: PixelBuffer, columns: AxisWeights, rows: AxisWeights,
        deadline: DecodeDeadline?
    ) {
        let sixteenBit = source.format == .rgba16
        let rowFloats = output.width * 4
        let ringRows = (0..<output.height).reduce(1) { rowsSoFar, outputY in
            max(rowsSoFar, rows.weightStart[outputY + 1] - rows.weightStart[outputY])
        }
        let bandCount = bandCount(sourceWidth: source.width, sourceHeight: source.height, outputHeight: output.height)
        let rowsPerBand = (output.height + bandCount - 1) / bandCount
        DispatchQueue.concurrentPerform(iterations: bandCount) { band in
            let ring = UnsafeMutableBufferPointer<Float>.allocate(capacity: ringRows * rowFloats)
            let sums = UnsafeMutableBufferPointer<Float>.allocate(capacity: rowFloats)
            ring.initialize(repeating: 0)
            sums.initialize(repeating: 0)
            defer {
                ring.deallocate()
                sums.deallocate()
            }
            var ringSourceRow = [Int](repeating: -1, count: ringRows)
            columns.withPointers { firstIndex, weightStart, weights in
                for outputY in (band * rowsPerBand)..<min(output.height, (band + 1) * rowsPerBand) {
                    if let deadline, deadline.hasPassed { break }
                    sums.update(repeating: 0)
                    for weightIndex in rows.weightStart[outputY]..<rows.weightStart[outputY + 1] {
                        let rowWeight = rows.weights[weightIndex]
                        let sourceY = rows.firstIndex[outputY] + weightIndex - rows.weightStart[outputY]
                        let slot = sourceY % ringRows
                        let filtered = ring.baseAddress! + slot * rowFloats
                        if ringSourceRow[slot] != sourceY {
                            webimage_resample_filter(
                                source.row(sourceY), sixteenBit, firstIndex, weightStart, weights, output.width,
                                filtered)
                            ringSourceRow[slot] = sourceY
                        }
                        for index in 0..<rowFloats { sums[index] += filtered[index] * rowWeight }
                    }
                    // Un-premultiplied, clamped, rounded halves away from zero (the values of
                    // `Float.rounded()`).
                    webimage_resample_write(sums.baseAddress!, output.width, output.row(outputY), sixteenBit)
                }
            }
        }
    }

    /// How many bands of output rows a resize runs at once: one per
    /// ``minimumSourcePixelsPerBand`` of source and per ``minimumRowsPerBand`` of output, at
    /// least 1 and at most ``maximumBandCount``.
    ///
    /// A band handed to another thread costs a thread wake-up and preempts whatever that core
    /// was running, so a small resize (a 640×480 JPEG decoded at half scale, 320×240, finished
    /// to a 256-pixel thumbnail: about 0.3 ms) stays on the caller's thread. When many
    /// thumbnails are decoded at once, as the image manager and `webimage get` do, the cores
    /// are already busy with other decodes; a 12 MP JPEG's 500×375 DC image still resizes in
    /// two bands.
    static func bandCount(sourceWidth: Int, sourceHeight: Int, outputHeight: Int) -> Int {
        let bySource = sourceWidth * sourceHeight / minimumSourcePixelsPerBand
        let byOutput = outputHeight / minimumRowsPerBand
        return max(1, min(maximumBandCount, bySource, byOutput))
    }

    /// Most bands of output rows resampled at once.
    private static let maximumBandCount = 8
    /// Fewest output rows in a band: smaller outputs use fewer bands.
    private static let minimumRowsPerBand = 32
    /// Fewest source pixels per band (64 Ki, about 0.25 ms of resampling on the benchmark
    /// machine): smaller sources use fewer bands.
    private static let minimumSourcePixelsPerBand = 64 * 1024
}
