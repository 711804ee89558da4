import Testing
import WebImageCoderVerifier

@testable import WebImageCore

@Suite struct ImageResizerTests {
    @Test func halvingAveragesEachTwoByTwoBlock() throws {
        let source = try TestPixels.rgba8(width: 4, height: 2) { x, _ in [UInt8(x * 40), 100, 200, 255] }
        let output = try ImageResizer.resize(source, width: 2, height: 1)
        #expect(output.width == 2 && output.height == 1)
        #expect(output.channels(x: 0, y: 0) == [20, 100, 200, 255])
        #expect(output.channels(x: 1, y: 0) == [100, 100, 200, 255])
    }

    @Test func fractionalScaleWeighsPartialPixels() throws {
        // 3 pixels to 2: output 0 covers source 0 fully and half of source 1.
        let source = try TestPixels.rgba8(width: 3, height: 1) { x, _ in [[0, 90, 180][x], 0, 0, 255] }
        let output = try ImageResizer.resize(source, width: 2, height: 1)
        #expect(output.channels(x: 0, y: 0)[0] == 30)
        #expect(output.channels(x: 1, y: 0)[0] == 150)
    }

    @Test func halvesRoundAwayFromZero() throws {
        let source = try TestPixels.rgba8(width: 2, height: 1) { x, _ in [[20, 21][x], [0, 1][x], 255, 255] }
        let output = try ImageResizer.resize(source, width: 1, height: 1)
        #expect(output.channels(x: 0, y: 0) == [21, 1, 255, 255])
    }

    @Test func transparentPixelsDoNotDarkenColour() throws {
        let source = try TestPixels.rgba8(width: 2, height: 1) { x, _ in x == 0 ? [255, 0, 0, 255] : [0, 0, 0, 0] }
        let output = try ImageResizer.resize(source, width: 1, height: 1)
        #expect(output.channels(x: 0, y: 0) == [255, 0, 0, 128])
    }

    @Test func sixteenBitChannelsKeepTheirPrecision() throws {
        let source = try PixelBuffer(width: 2, height: 1, format: .rgba16)
        let row = source.row(0).assumingMemoryBound(to: UInt16.self)
        for (index, value) in [1000, 2000, 3000, 65535, 1002, 2002, 3002, 65535].enumerated() {
            row[index] = UInt16(value)
        }
        let output = try ImageResizer.resize(source, width: 1, height: 1)
        #expect(output.format == .rgba16)
        #expect(output.channels(x: 0, y: 0) == [1001, 2001, 3001, 65535])
    }

    @Test func uniformImageStaysUniformAtAnySize() throws {
        let source = try TestPixels.rgba8(width: 97, height: 61) { _, _ in [12, 34, 56, 255] }
        let output = try ImageResizer.resize(source, width: 13, height: 7)
        for y in 0..<7 { for x in 0..<13 { #expect(output.channels(x: x, y: y) == [12, 34, 56, 255]) } }
    }
}

/// How many threads a resize uses.
@Suite struct ImageResizerBandTests {
    @Test func smallSourcesStayOnTheCallersThread() {
        #expect(ImageResizer.bandCount(sourceWidth: 320, sourceHeight: 240, outputHeight: 192) == 1)
        #expect(ImageResizer.bandCount(sourceWidth: 97, sourceHeight: 61, outputHeight: 7) == 1)
        #expect(ImageResizer.bandCount(sourceWidth: 10, sourceHeight: 10, outputHeight: 0) == 1)
    }

    @Test func largeSourcesSplitByTheirSizeAndTheOutputsRows() {
        #expect(ImageResizer.bandCount(sourceWidth: 500, sourceHeight: 375, outputHeight: 192) == 2)
        #expect(ImageResizer.bandCount(sourceWidth: 1024, sourceHeight: 512, outputHeight: 96) == 3)
        #expect(ImageResizer.bandCount(sourceWidth: 4000, sourceHeight: 3000, outputHeight: 192) == 6)
        #expect(ImageResizer.bandCount(sourceWidth: 4000, sourceHeight: 3000, outputHeight: 3000) == 8)
    }
}

/// The resizer against a plain per-channel, per-output-pixel evaluation of the same weights
/// in the same order: the row cache and the SIMD lanes must not change a single value.
@Suite struct ImageResizerArithmeticTests {
    /// (500, 375) to (256, 192) runs in 2 bands, the others in 1.
    @Test(arguments: [(500, 375, 256, 192), (97, 61, 13, 7), (40, 30, 40, 29), (9, 5, 4, 5), (320, 240, 256, 192)])
    func matchesThePlainEvaluationExactly(size: (Int, Int, Int, Int)) throws {
        var random = SeededNoise(seed: UInt32(size.0 * 1000 + size.1))
        let source = try TestPixels.rgba8(width: size.0, height: size.1) { _, _ in
            let alpha = random.next(below: 3) == 0 ? random.nextByte() : 255
            return [random.nextByte(), random.nextByte(), random.nextByte(), alpha]
        }
        #expect(try mismatches(source, width: size.2, height: size.3, maxValue: 255) == 0)
    }

    /// A 16-bit source, with the same alphas: 0, partial and opaque.
    @Test(arguments: [(97, 61, 13, 7), (320, 240, 256, 192)])
    func sixteenBitMatchesThePlainEvaluationExactly(size: (Int, Int, Int, Int)) throws {
        var random = SeededNoise(seed: UInt32(size.0 * 1000 + size.1))
        let source = try PixelBuffer(width: size.0, height: size.1, format: .rgba16)
        for y in 0..<size.1 {
            let row = source.row(y).assumingMemoryBound(to: UInt16.self)
            for index in 0..<(size.0 * 4) {
                let value = UInt16(random.next() & 0xFFFF)
                row[index] = index % 4 == 3 && random.next(below: 3) != 0 ? 65535 : value
            }
        }
        #expect(try mismatches(source, width: size.2, height: size.3, maxValue: 65535) == 0)
    }

    /// Output pixels of `source` resized to `width` × `height` that differ from the plain evaluation.
    private func mismatches(_ source: PixelBuffer, width: Int, height: Int, maxValue: Float) throws -> Int {
        let output = try ImageResizer.resize(source, width: width, height: height)
        let columns = ImageResizer.AxisWeights(sourceLength: source.width, targetLength: width)
        let rows = ImageResizer.AxisWeights(sourceLength: source.height, targetLength: height)
        var mismatches = 0
        for y in 0..<height {
            for x in 0..<width {
                let plain = plainEvaluation(source, x: x, y: y, columns: columns, rows: rows, maxValue: maxValue)
                if output.channels(x: x, y: y) != plain { mismatches += 1 }
            }
        }
        return mismatches
    }

    private func plainEvaluation(
        _ source: PixelBuffer, x: Int, y: Int, columns: ImageResizer.AxisWeights, rows: ImageResizer.AxisWeights,
        maxValue: Float
    ) -> [Int] {
        var sums: [Float] = [0, 0, 0, 0]
        for rowWeightIndex in rows.weightStart[y]..<rows.weightStart[y + 1] {
            let sourceY = rows.firstIndex[y] + rowWeightIndex - rows.weightStart[y]
            var filtered: [Float] = [0, 0, 0, 0]
            for columnWeightIndex in columns.weightStart[x]..<columns.weightStart[x + 1] {
                let sourceX = columns.firstIndex[x] + columnWeightIndex - columns.weightStart[x]
                let pixel = source.channels(x: sourceX, y: sourceY)
                let weightedAlpha = columns.weights[columnWeightIndex] * Float(pixel[3])
                for channel in 0..<3 { filtered[channel] += Float(pixel[channel]) * weightedAlpha }
                filtered[3] += weightedAlpha
            }
            for channel in 0..<4 { sums[channel] += filtered[channel] * rows.weights[rowWeightIndex] }
        }
        guard sums[3] > 0 else { return [0, 0, 0, 0] }
        func rounded(_ value: Float) -> Int { Int(min(maxValue, max(0, value)).rounded()) }
        return [rounded(sums[0] / sums[3]), rounded(sums[1] / sums[3]), rounded(sums[2] / sums[3]), rounded(sums[3])]
    }
}
