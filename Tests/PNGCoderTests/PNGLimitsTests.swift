import PNGCoder
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

/// The decode limits on every PNG path: libpng's side limit, the row-streamed thumbnail's
/// buffers, the incremental canvas and the APNG canvases, each refused before allocating.
@Suite struct PNGLimitsTests {
    let coder = PNGImageCoder()

    func decodeError(_ bytes: [UInt8], _ request: DecodeRequest) throws -> ImageCodingError {
        try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try coder.decode($0, request: request) }
        }
    }

    @Test func aSideOverOneMillionPixelsIsTooLargeAtTheHeader() throws {
        let wide = HostileImages.png(width: 2_147_483_647, height: 135)
        let tooWide = ImageCodingError(
            .tooLarge, "image too large: the width exceeds the limit of 1000000 pixels a side")
        #expect(
            try wide.withUnsafeBytes { buffer in try #require(throws: ImageCodingError.self) { try coder.probe(buffer) }
            } == tooWide)
        #expect(try decodeError(wide, DecodeRequest(thumbnailBox: (64, 1))) == tooWide)
        let tall = HostileImages.png(width: 1, height: 1_000_001)
        #expect(
            try decodeError(tall, DecodeRequest(thumbnailBox: (1, 64)))
                == ImageCodingError(.tooLarge, "image too large: the height exceeds the limit of 1000000 pixels a side")
        )
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        let incremental = try #require(throws: ImageCodingError.self) {
            try wide.withUnsafeBytes { try decoder.append($0, isFinal: true) }
        }
        #expect(incremental == tooWide)
    }

    @Test func theRowStreamedThumbnailCountsItsRowBuffersAgainstTheByteLimit() throws {
        // 1,000,000 × 135 to a 64×1 box: factor 135, a 7408×1 output; rows of 9 bytes a source
        // pixel (RGBA, index, column), libpng's two rows of 8 bytes a pixel, 40-byte block sums.
        let bytes = HostileImages.png(width: 1_000_000, height: 135)
        var request = DecodeRequest(thumbnailBox: (64, 1))
        request.maxByteCount = 10_000_000
        let needed = 1_000_000 * 9 + (1_000_000 * 8 + 64) * 2 + 7408 * 40 + 7408 * 4
        #expect(
            try decodeError(bytes, request)
                == ImageCodingError(
                    .tooLarge,
                    "image too large: decoding a row-streamed thumbnail needs \(needed) bytes, over the limit of "
                        + "10000000 bytes"))
        request.maxByteCount = needed
        #expect(try decodeError(bytes, request).kind != .tooLarge)
    }

    @Test func theBlockSumsOfALargeOutputAreCountedToo() throws {
        // 20000 × 20000 to a 10000 × 10000 box: 100 megapixels out (the pixel limit) but 4 GB of sums.
        let error = try decodeError(
            HostileImages.png(width: 20000, height: 20000), DecodeRequest(thumbnailBox: (10000, 10000)))
        let needed = 100_000_000 * 40 + 20000 * 9 + (20000 * 8 + 64) * 2 + 100_000_000 * 4
        #expect(
            error
                == ImageCodingError(
                    .tooLarge,
                    "image too large: decoding a row-streamed thumbnail needs \(needed) bytes, over the limit of "
                        + "1073741824 bytes"))
    }

    @Test func theIncrementalCanvasAndItsCopyAreCountedAgainstTheByteLimit() throws {
        var request = DecodeRequest()
        request.maxByteCount = 1_000_000
        let decoder = try coder.makeIncrementalDecoder(request: request)
        let error = try #require(throws: ImageCodingError.self) {
            try HostileImages.png(width: 2000, height: 2000).withUnsafeBytes { try decoder.append($0, isFinal: true) }
        }
        #expect(
            error
                == ImageCodingError(
                    .tooLarge,
                    "image too large: decoding the canvas and its copy needs 32000000 bytes, over the limit of "
                        + "1000000 bytes"))
    }

    @Test func anAPNGFrameCountsItsCanvasesAgainstTheByteLimit() throws {
        let bytes = try Fixture.bytes("apng/anim.apng")
        let animation = try coder.openAnimation(bytes)
        var request = DecodeRequest()
        request.maxByteCount = 100
        let error = try #require(throws: ImageCodingError.self) { try animation.decodeFrame(at: 0, request: request) }
        let needed = animation.info.width * animation.info.height * 16
        #expect(
            error
                == ImageCodingError(
                    .tooLarge,
                    "image too large: decoding the canvases and a frame needs \(needed) bytes, over the limit of 100 bytes"
                ))
        request.maxByteCount = needed
        #expect(try animation.decodeFrame(at: 0, request: request).width == animation.info.width)
    }

    @Test func aPassedDeadlineStopsAnAPNGBetweenFrames() throws {
        let animation = try coder.openAnimation(try Fixture.bytes("apng/anim.apng"))
        var request = DecodeRequest()
        request.deadline = DecodeDeadline(monotonicNanoseconds: 1)
        let error = try #require(throws: ImageCodingError.self) { try animation.decodeFrame(at: 1, request: request) }
        #expect(error == ImageCodingError(.timedOut, "decode timed out before frame 0: the deadline passed"))
    }

    @Test func aPassedDeadlineStopsTheRowStreamedThumbnail() throws {
        var request = DecodeRequest(thumbnailBox: (240, 200), maxPixelCount: 100_000)
        request.deadline = DecodeDeadline(monotonicNanoseconds: 1)
        let error = try decodeError(try Fixture.bytes("png/large-120mp.png"), request)
        #expect(error == ImageCodingError(.timedOut, "the decode passed its deadline"))
    }
}
