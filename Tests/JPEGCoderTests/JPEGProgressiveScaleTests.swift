import JPEGCoder
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

/// DCT-scaled decodes of progressive files read only the scans whose coefficients the scaled
/// IDCTs use, and stop once those are final: the pixels still equal djpeg's at the same scale,
/// and a file cut short after those scans still gives the thumbnail.
@Suite(.ownThread) struct JPEGProgressiveScaleTests {
    let coder = JPEGImageCoder()

    /// cjpeg options (with `-progressive`) of each layout: 4:2:0, 4:2:2, 4:4:4, gray, restart markers.
    static let layouts: [[String]] = [
        ["-sample", "2x2"], ["-sample", "2x1"], ["-sample", "1x1"], ["-grayscale"],
        ["-sample", "2x2", "-restart", "2"],
    ]

    /// Decodes `bytes` at `eighths` / 8 through the coder (a thumbnail box of exactly that size).
    func decode(_ bytes: [UInt8], width: Int, height: Int, eighths: Int) throws -> DecodedImage {
        let box = ((width * eighths + 7) / 8, (height * eighths + 7) / 8)
        return try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest(thumbnailBox: box)) }
    }

    /// The offset of every SOS marker (a scan's start) in `bytes`.
    static func scanStarts(_ bytes: [UInt8]) -> [Int] {
        (0..<(bytes.count - 1)).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }
    }

    @Test(arguments: layouts.indices, [1, 2, 4])
    func scaledPixelsEqualDjpegAtTheSameScale(layout: Int, eighths: Int) throws {
        let (width, height) = (403, 301)
        let bytes = try Cjpeg.encode(width: width, height: height, options: ["-progressive"] + Self.layouts[layout])
        let image = try decode(bytes, width: width, height: height, eighths: eighths)
        let reference = try Djpeg.decode(bytes: bytes, scaleEighths: eighths)
        #expect(image.width == (width * eighths + 7) / 8 && image.height == (height * eighths + 7) / 8)
        #expect(image.sourceWidth == width && image.sourceHeight == height)
        #expect(reference.mismatchedPixels(image.pixels) == 0, "\(Self.layouts[layout]) at \(eighths)/8")
    }

    /// cjpeg's 4:2:0 script has 10 scans; at 1/8 luma needs only its DC (final after scan 7) and
    /// chroma, scaled by 2×2 IDCTs, its AC scans (final after scan 9). The last scan, the luma AC
    /// refinement, is never read: a file cut inside it still gives the 1/8 thumbnail, and every
    /// other scale, which needs it, is truncated.
    @Test func aColourFileCutInItsLastScanStillGivesTheEighthScaleThumbnail() throws {
        let (width, height) = (403, 301)
        let bytes = try Cjpeg.encode(width: width, height: height, options: ["-progressive"])
        let starts = Self.scanStarts(bytes)
        #expect(starts.count == 10)
        let cut = Array(bytes[..<(starts[9] + (bytes.count - starts[9]) / 2)])
        let thumbnail = try decode(cut, width: width, height: height, eighths: 1)
        #expect(thumbnail.width == 51 && thumbnail.height == 38)
        #expect(try Djpeg.decode(bytes: bytes, scaleEighths: 1).mismatchedPixels(thumbnail.pixels) == 0)
        for eighths in [2, 4, 8] {
            let error = try #require(throws: ImageCodingError.self) {
                try decode(cut, width: width, height: height, eighths: eighths)
            }
            #expect(error.kind == .truncatedData, "\(eighths)/8")
        }
    }

    /// cjpeg's gray script has 6 scans, the DC final after scan 5: cut inside scan 6 the 1/8
    /// thumbnail (DC only) decodes; cut inside scan 5 (the DC refinement) it is truncated.
    @Test func aGrayFileGivesTheThumbnailOnlyOnceItsDCIsFinal() throws {
        let (width, height) = (403, 301)
        let bytes = try Cjpeg.encode(width: width, height: height, options: ["-progressive", "-grayscale"])
        let starts = Self.scanStarts(bytes)
        #expect(starts.count == 6)
        let afterDC = Array(bytes[..<(starts[5] + 40)])
        let thumbnail = try decode(afterDC, width: width, height: height, eighths: 1)
        #expect(thumbnail.width == 51 && thumbnail.height == 38)
        #expect(try Djpeg.decode(bytes: bytes, scaleEighths: 1).mismatchedPixels(thumbnail.pixels) == 0)
        let insideDC = Array(bytes[..<(starts[4] + 20)])
        let error = try #require(throws: ImageCodingError.self) {
            try decode(insideDC, width: width, height: height, eighths: 1)
        }
        #expect(error.kind == .truncatedData)
        #expect(error.message.hasPrefix("truncated JPEG: "))
    }

    /// The deadline is checked while the scans are read, not only every 64 output rows (a
    /// 1/8 thumbnail of this file has 38).
    @Test func aPassedDeadlineStopsTheScans() throws {
        let (width, height) = (403, 301)
        let bytes = try Cjpeg.encode(width: width, height: height, options: ["-progressive"])
        var request = DecodeRequest(thumbnailBox: (51, 38))
        request.deadline = DecodeDeadline(monotonicNanoseconds: 1)
        let error = try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try coder.decode($0, request: request) }
        }
        #expect(error == ImageCodingError(.timedOut, "the decode passed its deadline"))
    }

    /// Damaged progressive files (flipped bits, inserted markers, cuts) at every scale: an
    /// image or one typed error, never a crash.
    @Test func damagedProgressiveFilesGiveAnImageOrATypedError() throws {
        let (width, height) = (203, 157)
        let original = try Cjpeg.encode(width: width, height: height, options: ["-progressive"])
        let firstScan = Self.scanStarts(original)[0]
        var noise = SeededNoise(seed: 25)
        for _ in 0..<60 {
            var bytes = original
            switch noise.next(below: 3) {
            case 0:
                for _ in 0..<4 { bytes[firstScan + noise.next(below: bytes.count - firstScan - 2)] ^= 0x10 }
            case 1: bytes.removeLast(1 + noise.next(below: bytes.count - firstScan))
            default:
                let position = firstScan + noise.next(below: bytes.count - firstScan - 2)
                bytes.insert(contentsOf: [0xFF, UInt8(0xC0 + noise.next(below: 64))], at: position)
            }
            for eighths in [1, 2, 4] {
                do {
                    let image = try decode(bytes, width: width, height: height, eighths: eighths)
                    #expect(image.width == (width * eighths + 7) / 8)
                } catch let error as ImageCodingError {
                    #expect(error.kind != .internalError)
                }
            }
        }
    }
}
