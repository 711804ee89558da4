import CWebImageImaging
import Testing
import WebImageCoderVerifier

/// The resizer's C row loops: the build's paths (SSE2 on x86-64) give the values of the
/// portable paths, which other machines run, for every input kind.
@Suite struct ResampleKernelTests {
    /// Sums as the resizer accumulates them, plus the edges: alpha 0 and negative, colours
    /// below 0 and above the maximum, and quotients just below, at and just above each half.
    private static func sums(maxValue: Float, seed: UInt32) -> [Float] {
        var random = SeededNoise(seed: seed)
        var values: [Float] = []
        for _ in 0..<4096 {
            let alpha = Float(random.next() % 1_000_000) / 1000
            for _ in 0..<3 { values.append(Float(random.next() % 1_000_000) / 1_000_000 * maxValue * alpha) }
            values.append(alpha)
        }
        values += [1, 2, 3, 0, 5, 6, 7, -1, -3, 0, maxValue * 3, 2, 0, 0, 0, 0]
        for whole in [0, 1, 2, 254, 255, 65534, 65535] as [Float] where whole <= maxValue {
            for nudge in [-1, 0, 1] as [Float] {
                let half = (whole + 0.5) + nudge * (whole + 0.5).ulp
                values += [half, half * 3, half, half]
                values += [half * 7, half * 0.5, half * 7, 7]
            }
        }
        return values
    }

    /// What the build's write and the portable one make of `sums`, in channels of `Channel`'s width.
    private static func written<Channel: FixedWidthInteger>(_ sums: [Float], as: Channel.Type) -> (
        built: [Channel], portable: [Channel]
    ) {
        var built = [Channel](repeating: 1, count: sums.count)
        var plain = [Channel](repeating: 2, count: sums.count)
        webimage_resample_write(sums, sums.count / 4, &built, Channel.bitWidth == 16)
        webimage_resample_write_portable(sums, sums.count / 4, &plain, Channel.bitWidth == 16)
        return (built, plain)
    }

    @Test func eightBitRowsAreWrittenAsThePortablePathWritesThem() {
        let (built, portable) = Self.written(Self.sums(maxValue: 255, seed: 8), as: UInt8.self)
        #expect(zip(built, portable).filter { $0 != $1 }.count == 0)
        #expect(Array(built[(4096 * 4)..<(4096 * 4 + 16)]) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 2, 0, 0, 0, 0])
    }

    @Test func sixteenBitRowsAreWrittenAsThePortablePathWritesThem() {
        let (built, portable) = Self.written(Self.sums(maxValue: 65535, seed: 16), as: UInt16.self)
        #expect(zip(built, portable).filter { $0 != $1 }.count == 0)
        #expect(Array(built[(4096 * 4)..<(4096 * 4 + 16)]) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 65535, 2, 0, 0, 0, 0])
    }

    /// Weights of 61 source pixels over 13 outputs (up to 6 taps each), as the resizer makes them.
    private static let taps: (first: [Int], start: [Int], weights: [Float]) = {
        var first: [Int] = []
        var start = [0]
        var weights: [Float] = []
        for output in 0..<13 {
            first.append(output * 61 / 13)
            let count = min(61 - first[output], output % 3 + 4)
            for tap in 0..<count { weights.append(Float(tap + 1) / Float(count * (count + 1) / 2)) }
            start.append(weights.count)
        }
        return (first, start, weights)
    }()

    /// What the build's filter and the portable one make of `row` with ``taps``, as bit patterns.
    private static func filtered<Channel: FixedWidthInteger>(_ row: [Channel]) -> (built: [UInt32], portable: [UInt32])
    {
        var built = [Float](repeating: 1, count: 13 * 4)
        var plain = [Float](repeating: 2, count: 13 * 4)
        let sixteenBit = Channel.bitWidth == 16
        webimage_resample_filter(row, sixteenBit, taps.first, taps.start, taps.weights, 13, &built)
        webimage_resample_filter_portable(row, sixteenBit, taps.first, taps.start, taps.weights, 13, &plain)
        return (built.map(\.bitPattern), plain.map(\.bitPattern))
    }

    @Test func eightBitRowsAreFilteredAsThePortablePathFiltersThem() {
        var random = SeededNoise(seed: 81)
        let row = (0..<(61 * 4)).map { index in index % 8 == 3 ? 255 : random.nextByte() }
        let (built, portable) = Self.filtered(row)
        #expect(zip(built, portable).filter { $0 != $1 }.count == 0)
        #expect(Float(bitPattern: built[3]) > 0)
    }

    @Test func sixteenBitRowsAreFilteredAsThePortablePathFiltersThem() {
        var random = SeededNoise(seed: 161)
        let row = (0..<(61 * 4)).map { index in index % 8 == 3 ? 65535 : UInt16(random.next() & 0xFFFF) }
        let (built, portable) = Self.filtered(row)
        #expect(zip(built, portable).filter { $0 != $1 }.count == 0)
        #expect(Float(bitPattern: built[3]) > 0)
    }
}
