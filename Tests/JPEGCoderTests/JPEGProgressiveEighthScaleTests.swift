import CJPEGShim
import Foundation
import JPEGCoder
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

/// The DC path for progressive files at 1/8 (Plugins/JPEGCoder/Shim/DCDecoder/jpeg_dc_progressive.c):
/// it decodes the DC scans and 4:2:0 chroma's AC scans without libjpeg (on two threads for
/// large files: the DC scans on one, the AC scans on the other), its pixels equal djpeg's at
/// 1/8 byte for byte (the tolerance of the baseline DC path), and whatever it does not cover,
/// irregular or cut short, gets libjpeg's own answer.
@Suite(.ownThread) struct JPEGProgressiveEighthScaleTests {
    let coder = JPEGImageCoder()

    /// cjpeg options (after `-progressive`): 4:2:0, 4:2:2, 4:4:4, gray, and restart markers
    /// every 2 MCU rows, every 3 MCUs (so inside rows), and every MCU.
    static let layouts: [[String]] = [
        ["-sample", "2x2"], ["-sample", "2x1"], ["-sample", "1x1"], ["-grayscale"],
        ["-sample", "2x2", "-restart", "2"], ["-sample", "2x1", "-restart", "3B"],
        ["-sample", "1x1", "-restart", "1B"],
    ]

    /// A script of its own: each DC sent alone with a point transform and refined (chroma's
    /// refinement interleaved), chroma AC in bands of different point transforms, refined over
    /// other bands, and the luma AC scans last.
    static let script = """
        0: 0-0, 0, 2; 1: 0-0, 0, 1; 2: 0-0, 0, 3;
        0: 0-0, 2, 1; 2: 0-0, 3, 2; 2: 0-0, 2, 1; 1,2: 0-0, 1, 0; 0: 0-0, 1, 0;
        1: 1-5, 0, 2; 1: 6-63, 0, 1; 1: 1-5, 2, 1; 1: 1-63, 1, 0;
        2: 1-2, 0, 0; 2: 3-63, 0, 2; 2: 3-63, 2, 1; 2: 3-63, 1, 0;
        0: 1-63, 0, 1; 0: 1-63, 1, 0;
        """

    /// Every AC scan before the DC refinements: chroma AC sent and refined, then the luma AC,
    /// then each DC refined twice (interleaved, then luma alone).
    static let dcRefinedLast = """
        0,1,2: 0-0, 0, 2;
        1: 1-63, 0, 1; 2: 1-63, 0, 1; 1: 1-63, 1, 0; 2: 1-63, 1, 0; 0: 1-63, 0, 0;
        0,1,2: 0-0, 2, 1; 0: 0-0, 1, 0; 1: 0-0, 1, 0; 2: 0-0, 1, 0;
        """

    /// Large enough (at quality 95 with the noise of Cjpeg's picture) that both the DC scans
    /// and the 4:2:0 chroma AC scans carry more than 16 KiB, so each gets a thread.
    static let twoThreadSize = (width: 1600, height: 1200)

    /// Decodes through the shim at 1/8 with the DC path and without it.
    func bothWays(_ bytes: [UInt8]) -> (
        fast: (result: EighthScaleDecoder.Result, route: jpeg_shim_dc_route),
        reference: EighthScaleDecoder.Result
    ) {
        (
            EighthScaleDecoder.decode(bytes, allowingFastPath: true),
            EighthScaleDecoder.decode(bytes, allowingFastPath: false).result
        )
    }

    /// The coder's 1/8 thumbnail against `djpeg -scale 1/8`: the mismatched pixels.
    func mismatchesAgainstDjpeg(_ bytes: [UInt8], width: Int, height: Int) throws -> Int {
        let box = ((width + 7) / 8, (height + 7) / 8)
        let image = try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest(thumbnailBox: box)) }
        #expect(image.width == box.0 && image.height == box.1)
        return try Djpeg.decode(bytes: bytes, scaleEighths: 1).mismatchedPixels(image.pixels)
    }

    @Test(arguments: layouts.indices, [(403, 301), (64, 48), (17, 9)])
    func eighthScaleEqualsDjpegWithoutLibjpeg(layout: Int, size: (width: Int, height: Int)) throws {
        let options = ["-progressive"] + Self.layouts[layout]
        let bytes = try Cjpeg.encode(width: size.width, height: size.height, options: options)
        try expectEqualsDjpeg(
            bytes, width: size.width, height: size.height, route: JPEG_SHIM_DC_PROGRESSIVE, "\(options) \(size)")
    }

    /// Expects the DC path to take `route` and give the pixels of libjpeg and of `djpeg -scale 1/8`.
    func expectEqualsDjpeg(
        _ bytes: [UInt8], width: Int, height: Int, route: jpeg_shim_dc_route, _ comment: Comment
    ) throws {
        let (fast, reference) = bothWays(bytes)
        #expect(fast.route == route, comment)
        #expect(fast.result.status == WEBIMAGE_STATUS_OK, comment)
        #expect(JPEGEighthScaleTests.differences(fast.result, reference) == 0, comment)
        #expect(try mismatchesAgainstDjpeg(bytes, width: width, height: height) == 0, comment)
    }

    /// The scripts of their own (18 and 10 scans), small (one thread) and large (two threads),
    /// with and without restart markers inside rows.
    @Test(
        arguments: [(script, 18), (dcRefinedLast, 10)].indices,
        [["-sample", "2x2"], ["-sample", "2x2", "-restart", "5B"]])
    func scriptsOfTheirOwnEqualDjpeg(script: Int, options: [String]) throws {
        let (text, scans) = [(Self.script, 18), (Self.dcRefinedLast, 10)][script]
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("scans.txt")
        try Data(text.utf8).write(to: file)
        for (width, height) in [(403, 301), Self.twoThreadSize] {
            let bytes = try Cjpeg.encode(width: width, height: height, options: ["-scans", file.path] + options)
            #expect(JPEGProgressiveScaleTests.scanStarts(bytes).count == scans)
            let route = width > 403 ? JPEG_SHIM_DC_PROGRESSIVE_TWO_THREADS : JPEG_SHIM_DC_PROGRESSIVE
            try expectEqualsDjpeg(bytes, width: width, height: height, route: route, "\(script) \(options) \(width)")
        }
    }

    /// cjpeg's own scripts on a large file: 4:2:0 (with and without restart markers) takes two
    /// threads; 4:4:4 and gray read DC scans only, so they stay on one.
    static let largeLayouts: [(options: [String], route: jpeg_shim_dc_route)] = [
        (["-sample", "2x2"], JPEG_SHIM_DC_PROGRESSIVE_TWO_THREADS),
        (["-sample", "2x2", "-restart", "1"], JPEG_SHIM_DC_PROGRESSIVE_TWO_THREADS),
        (["-sample", "1x1"], JPEG_SHIM_DC_PROGRESSIVE), (["-grayscale"], JPEG_SHIM_DC_PROGRESSIVE),
    ]

    @Test(arguments: largeLayouts.indices)
    func largeFilesEqualDjpeg(layout: Int) throws {
        let (options, route) = Self.largeLayouts[layout]
        let (width, height) = Self.twoThreadSize
        let bytes = try Cjpeg.encode(width: width, height: height, options: ["-progressive"] + options)
        try expectEqualsDjpeg(bytes, width: width, height: height, route: route, "\(options)")
    }

    /// cjpeg's 4:2:0 script: scans 1, 3, 4, 7, 8, 9 carry what 1/8 reads. Cut inside the last
    /// scan (luma AC) the DC path still gives the thumbnail; cut inside scan 9 (chroma AC
    /// refinement) it leaves the file to libjpeg, which says it is truncated.
    @Test func aCutFileIsDecodedOnlyOnceItsNeededScansAreWhole() throws {
        let bytes = try Cjpeg.encode(width: 403, height: 301, options: ["-progressive"])
        let starts = JPEGProgressiveScaleTests.scanStarts(bytes)
        #expect(starts.count == 10)
        let insideLastScan = bothWays(Array(bytes[..<(starts[9] + 100)]))
        #expect(insideLastScan.fast.route == JPEG_SHIM_DC_PROGRESSIVE)
        #expect(JPEGEighthScaleTests.differences(insideLastScan.fast.result, bothWays(bytes).reference) == 0)
        let insideNeededScan = bothWays(Array(bytes[..<(starts[8] + 100)]))
        #expect(insideNeededScan.fast.route == JPEG_SHIM_DC_NOT_USED)
        #expect(insideNeededScan.fast.result.status == WEBIMAGE_STATUS_TRUNCATED_DATA)
        #expect(JPEGEighthScaleTests.differences(insideNeededScan.fast.result, insideNeededScan.reference) == 0)
    }

    /// Arithmetic coding is left to libjpeg.
    @Test func arithmeticCodingIsLeftToLibjpeg() throws {
        let bytes = try Cjpeg.encode(width: 203, height: 157, options: ["-progressive", "-arithmetic"])
        let (fast, reference) = bothWays(bytes)
        #expect(fast.route == JPEG_SHIM_DC_NOT_USED)
        #expect(reference.status == WEBIMAGE_STATUS_OK)
        #expect(JPEGEighthScaleTests.differences(fast.result, reference) == 0)
    }

    /// Damaged copies (flipped bits, inserted markers, cuts) of a 4:2:0 file with restart
    /// markers and of a gray one: whatever the damage, the answer (status and pixels) is
    /// libjpeg's own, the DC path allowed or not.
    @Test(arguments: [["-sample", "2x2", "-restart", "1"], ["-grayscale"]])
    func damagedFilesGiveLibjpegsAnswer(options: [String]) throws {
        let original = try Cjpeg.encode(width: 203, height: 157, options: ["-progressive"] + options)
        let firstScan = JPEGProgressiveScaleTests.scanStarts(original)[0]
        var noise = SeededNoise(seed: 18)
        var fastDecodes = 0
        for _ in 0..<150 {
            let bytes = JPEGEighthScaleTests.damagedCopy(of: original, after: firstScan, noise: &noise)
            let (fast, reference) = bothWays(bytes)
            #expect(JPEGEighthScaleTests.differences(fast.result, reference) == 0)
            if fast.route == JPEG_SHIM_DC_PROGRESSIVE { fastDecodes += 1 }
        }
        #expect(fastDecodes > 0, "some damage lies in scans the thumbnail does not read")
    }

    /// A restart marker the units do not expect, in the last scan the thumbnail reads (the Cb AC
    /// refinement, 9th of cjpeg's 10): at the start of the last restart interval, or anywhere in a scan
    /// without restarts. libjpeg stops reading at the marker and decodes the rest of the scan
    /// from zero bits; the DC path would read across it, so it leaves such files to libjpeg
    /// (found by Tests/Fuzz/JPEGDCFuzz: one pixel's blue was 2 apart).
    @Test(arguments: [["-restart", "3B"], []])
    func aStrayRestartMarkerGivesLibjpegsAnswer(options: [String]) throws {
        let original = try Cjpeg.encode(width: 203, height: 157, options: ["-progressive", "-sample", "2x2"] + options)
        let sos = JPEGProgressiveScaleTests.scanStarts(original)
        try #require(sos.count == 10)
        let start = sos[8] + 2 + (Int(original[sos[8] + 2]) << 8 | Int(original[sos[8] + 3]))
        let restarts = (start..<(sos[9] - 1)).filter {
            original[$0] == 0xFF && (0xD0...0xD7).contains(original[$0 + 1])
        }
        #expect(restarts.isEmpty == options.isEmpty)
        var position = restarts.last.map { $0 + 2 } ?? (start + sos[9]) / 2
        if original[position - 1] == 0xFF { position += 1 }
        var bytes = original
        bytes.insert(contentsOf: [0xFF, UInt8(0xD0 + restarts.count % 8)], at: position)

        let (fast, reference) = bothWays(bytes)
        #expect(reference.status == WEBIMAGE_STATUS_OK)
        #expect(JPEGEighthScaleTests.differences(reference, bothWays(original).reference) > 0, "the marker matters")
        #expect(fast.route == JPEG_SHIM_DC_NOT_USED)
        #expect(JPEGEighthScaleTests.differences(fast.result, reference) == 0)
    }

    /// Damaged copies of a large 4:2:0 file, whose DC and AC scans go to two threads: a bad
    /// code or a cut in either thread's scans stops both and gives libjpeg's answer.
    @Test func damagedLargeFilesGiveLibjpegsAnswer() throws {
        let (width, height) = Self.twoThreadSize
        let original = try Cjpeg.encode(width: width, height: height, options: ["-progressive", "-restart", "4"])
        let starts = JPEGProgressiveScaleTests.scanStarts(original)
        var noise = SeededNoise(seed: 25)
        var (twoThreads, libjpeg) = (0, 0)
        for attempt in 0..<24 {
            // Half of the copies damaged from inside the scans the thumbnail reads (1, 3, 4, 7, 8, 9) on.
            let start = attempt % 2 == 0 ? starts[0] : starts[[0, 2, 3, 6, 7, 8][attempt / 2 % 6]]
            let bytes = JPEGEighthScaleTests.damagedCopy(of: original, after: start, noise: &noise)
            let (fast, reference) = bothWays(bytes)
            #expect(JPEGEighthScaleTests.differences(fast.result, reference) == 0, "attempt \(attempt)")
            if fast.route == JPEG_SHIM_DC_PROGRESSIVE_TWO_THREADS { twoThreads += 1 }
            if fast.route == JPEG_SHIM_DC_NOT_USED { libjpeg += 1 }
        }
        #expect(twoThreads > 0, "some damage lies in scans the thumbnail does not read")
        #expect(libjpeg > 0, "some damage lies in scans the thumbnail reads")
    }
}
