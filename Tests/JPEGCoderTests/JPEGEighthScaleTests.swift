import CJPEGShim
import Testing
import WebImageCoderVerifier

/// The 1/8-scale DC fast path: the same pixels as libjpeg-turbo's own 1/8-scale decode for
/// every layout it covers, on each of its routes, and libjpeg's answer for everything else.
@Suite(.ownThread) struct JPEGEighthScaleTests {
    /// cjpeg options of each covered layout, and whether the scan is large enough for two threads.
    static let coveredLayouts: [(options: [String], width: Int, height: Int, route: jpeg_shim_dc_route)] = [
        (["-sample", "2x2"], 203, 157, JPEG_SHIM_DC_ONE_THREAD),
        (["-sample", "2x1"], 203, 157, JPEG_SHIM_DC_ONE_THREAD),
        (["-sample", "1x1"], 203, 157, JPEG_SHIM_DC_ONE_THREAD),
        (["-grayscale"], 203, 157, JPEG_SHIM_DC_ONE_THREAD),
        (["-sample", "2x2", "-restart", "3B"], 203, 157, JPEG_SHIM_DC_ONE_THREAD),
        (["-sample", "2x2"], 801, 601, JPEG_SHIM_DC_SPECULATIVE_SPLIT),
        (["-sample", "2x1"], 801, 601, JPEG_SHIM_DC_SPECULATIVE_SPLIT),
        (["-sample", "1x1"], 801, 601, JPEG_SHIM_DC_SPECULATIVE_SPLIT),
        (["-grayscale"], 1201, 901, JPEG_SHIM_DC_SPECULATIVE_SPLIT),
        (["-sample", "2x2", "-restart", "1"], 801, 601, JPEG_SHIM_DC_SPLIT_AT_RESTART),
        (["-sample", "1x1", "-restart", "7B"], 801, 601, JPEG_SHIM_DC_SPLIT_AT_RESTART),
    ]

    @Test(arguments: coveredLayouts.indices)
    func fastPathEqualsLibjpegOnItsRoute(index: Int) throws {
        let layout = Self.coveredLayouts[index]
        let bytes = try Cjpeg.encode(width: layout.width, height: layout.height, options: layout.options)
        let reference = EighthScaleDecoder.decode(bytes, allowingFastPath: false)
        let fast = EighthScaleDecoder.decode(bytes, allowingFastPath: true)
        #expect(reference.route == JPEG_SHIM_DC_NOT_USED)
        #expect(fast.route == layout.route, "\(layout.options)")
        #expect(reference.result.status == WEBIMAGE_STATUS_OK)
        #expect(fast.result.width == (layout.width + 7) / 8 && fast.result.height == (layout.height + 7) / 8)
        #expect(
            Self.differences(fast.result, reference.result) == 0, "\(layout.options) \(layout.width)x\(layout.height)")
    }

    @Test(arguments: [
        ["-progressive", "-sample", "4x1"], ["-arithmetic"], ["-sample", "4x1"], ["-sample", "1x2"], ["-rgb"],
    ])
    func layoutsItDoesNotCoverAreLeftToLibjpeg(options: [String]) throws {
        let bytes = try Cjpeg.encode(width: 203, height: 157, options: options)
        let fast = EighthScaleDecoder.decode(bytes, allowingFastPath: true)
        #expect(fast.route == JPEG_SHIM_DC_NOT_USED)
        #expect(Self.differences(fast.result, EighthScaleDecoder.decode(bytes, allowingFastPath: false).result) == 0)
    }

    @Test func otherScalesAreLeftToLibjpeg() throws {
        let bytes = try Cjpeg.encode(width: 203, height: 157, options: [])
        for eighths: UInt32 in [2, 4, 8] {
            let route = EighthScaleDecoder.decode(bytes, allowingFastPath: true, scaleEighths: eighths).route
            #expect(route == JPEG_SHIM_DC_NOT_USED)
        }
    }

    /// Damaged copies of a one-thread file and of a speculative two-thread file: whatever the
    /// damage, the answer (status and pixels) is libjpeg's own, fast path allowed or not.
    @Test(arguments: [(203, 157, 150), (801, 601, 40)])
    func damagedDataGivesLibjpegsAnswer(size: (width: Int, height: Int, mutations: Int)) throws {
        let original = try Cjpeg.encode(width: size.width, height: size.height, options: [])
        let scanStart = try #require(Self.scanStart(original))
        var noise = SeededNoise(seed: 7)
        var fallbacks = 0
        for _ in 0..<size.mutations {
            let bytes = Self.damagedCopy(of: original, after: scanStart, noise: &noise)
            let fast = EighthScaleDecoder.decode(bytes, allowingFastPath: true)
            let reference = EighthScaleDecoder.decode(bytes, allowingFastPath: false)
            #expect(Self.differences(fast.result, reference.result) == 0)
            if fast.route == JPEG_SHIM_DC_NOT_USED { fallbacks += 1 }
        }
        #expect(fallbacks > size.mutations / 2, "most damage is noticed and left to libjpeg")
    }

    /// Two codes of length 1 make the second one all ones, which libjpeg refuses; the fast
    /// path refuses the table too and leaves the file to libjpeg. (An earlier table builder
    /// wrote past its lookup table on such input before refusing it: Tests/Fuzz/JPEGDCFuzz
    /// found it under AddressSanitizer.)
    @Test func aBogusHuffmanTableGivesLibjpegsError() throws {
        var bytes = try Cjpeg.encode(width: 203, height: 157, options: [])
        let table = try #require(Self.firstHuffmanTable(bytes))
        let counts = table + 1
        let donor = try #require((counts + 1..<counts + 16).first { bytes[$0] >= 2 })
        bytes[counts] += 2
        bytes[donor] -= 2
        let fast = EighthScaleDecoder.decode(bytes, allowingFastPath: true)
        let reference = EighthScaleDecoder.decode(bytes, allowingFastPath: false)
        #expect(reference.result.status == WEBIMAGE_STATUS_CORRUPT_DATA)
        #expect(fast.route == JPEG_SHIM_DC_NOT_USED)
        #expect(Self.differences(fast.result, reference.result) == 0)
    }

    /// A chroma quantiser of 16 everywhere, on coefficients quantised for about 2, makes
    /// dequantised chroma coefficients larger than 8-bit data gives; libjpeg-turbo's SIMD 2×2
    /// IDCT then differs from its C one (in about 180 bytes here), so the fast path leaves such files
    /// to libjpeg (found by Tests/Fuzz/JPEGDCFuzz).
    @Test func outOfRangeChromaCoefficientsAreLeftToLibjpeg() throws {
        var bytes = try Cjpeg.encode(width: 203, height: 157, options: [])
        let table = try #require(Self.quantizationTable(1, in: bytes))
        for index in table..<(table + 64) { bytes[index] = 16 }
        let fast = EighthScaleDecoder.decode(bytes, allowingFastPath: true)
        let reference = EighthScaleDecoder.decode(bytes, allowingFastPath: false)
        #expect(reference.result.status == WEBIMAGE_STATUS_OK)
        #expect(fast.route == JPEG_SHIM_DC_NOT_USED)
        #expect(Self.differences(fast.result, reference.result) == 0)
    }

    /// `original` damaged after offset `start`: 1-4 flipped bits, a cut, or an inserted marker.
    static func damagedCopy(of original: [UInt8], after start: Int, noise: inout SeededNoise) -> [UInt8] {
        var bytes = original
        switch noise.next(below: 3) {
        case 0:
            for _ in 0..<(1 + noise.next(below: 4)) {
                bytes[start + noise.next(below: bytes.count - start - 2)] ^= UInt8(1 << noise.next(below: 8))
            }
        case 1: bytes.removeLast(1 + noise.next(below: bytes.count - start))
        default:
            let position = start + noise.next(below: bytes.count - start - 2)
            bytes.insert(contentsOf: [0xFF, UInt8(0xC0 + noise.next(below: 64))], at: position)
        }
        return bytes
    }

    /// The offset of the 64 values of 8-bit quantisation table `identifier`.
    static func quantizationTable(_ identifier: UInt8, in bytes: [UInt8]) -> Int? {
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if bytes[index + 1] == 0xDB {
                var table = index + 4
                while table < index + 2 + length {
                    let precision = bytes[table] >> 4
                    if precision == 0 && bytes[table] & 15 == identifier { return table + 1 }
                    table += 1 + (precision == 0 ? 64 : 128)
                }
            }
            index += 2 + length
        }
        return nil
    }

    /// The offset of the class/identifier byte of the first table in the first DHT segment.
    static func firstHuffmanTable(_ bytes: [UInt8]) -> Int? {
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            if bytes[index + 1] == 0xC4 { return index + 4 }
            index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
        }
        return nil
    }

    /// How many bytes differ (every byte when the status or size differs).
    static func differences(_ a: EighthScaleDecoder.Result, _ b: EighthScaleDecoder.Result) -> Int {
        guard a.status == b.status, a.width == b.width, a.height == b.height else { return max(1, a.pixels.count) }
        return zip(a.pixels, b.pixels).filter { $0 != $1 }.count
    }

    /// The offset of the entropy-coded data: just after the SOS segment.
    static func scanStart(_ bytes: [UInt8]) -> Int? {
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if bytes[index + 1] == 0xDA { return index + 2 + length }
            index += 2 + length
        }
        return nil
    }
}
