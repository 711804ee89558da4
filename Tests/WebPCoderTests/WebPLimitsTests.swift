import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport
import WebPCoder

/// The byte limit and the deadline on WebP's incremental, full-size-plane and animation paths.
@Suite struct WebPLimitsTests {
    let coder = WebPImageCoder()

    @Test func anIncrementalDecodeCountsTheCanvasAndItsCopy() throws {
        let bytes = try Fixture.bytes("webp/lossy.webp")
        let info = try bytes.withUnsafeBytes { try coder.probe($0) }
        var request = DecodeRequest()
        request.maxByteCount = info.width * info.height * 8 - 1
        let decoder = try coder.makeIncrementalDecoder(request: request)
        let error = try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try decoder.append($0, isFinal: true) }
        }
        #expect(
            error
                == ImageCodingError(
                    .tooLarge,
                    "image too large: decoding the canvas and its copy needs \(info.width * info.height * 8) bytes, "
                        + "over the limit of \(request.maxByteCount) bytes"))
    }

    @Test func aLosslessThumbnailCountsItsFullSizePlane() throws {
        let bytes = try Fixture.bytes("webp/lossless-alpha.webp")
        let info = try bytes.withUnsafeBytes { try coder.probe($0) }
        var request = DecodeRequest(thumbnailBox: (4, 4))
        request.maxByteCount = info.width * info.height * 4
        let error = try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try coder.decode($0, request: request) }
        }
        #expect(error.kind == .tooLarge)
        #expect(error.message.hasPrefix("image too large: decoding a full-size plane needs "))
    }

    @Test func anAnimationFrameCountsTheCanvasesAgainstTheByteLimit() throws {
        let animation = try coder.openAnimation(HostileImages.webp(width: 9999, height: 9999, frames: 1000))
        #expect(animation.info.frameCount == 1000)
        var request = DecodeRequest()
        request.maxPixelCount = 0
        let error = try #require(throws: ImageCodingError.self) { try animation.decodeFrame(at: 0, request: request) }
        #expect(
            error
                == ImageCodingError(
                    .tooLarge,
                    "image too large: decoding the canvases and a frame needs \(9999 * 9999 * 12) bytes, over the "
                        + "limit of 1073741824 bytes"))
    }

    @Test func aPassedDeadlineStopsBeforeAFrame() throws {
        let animation = try coder.openAnimation(HostileImages.webp(width: 16, height: 16, frames: 3))
        var request = DecodeRequest()
        request.deadline = DecodeDeadline(monotonicNanoseconds: 1)
        let error = try #require(throws: ImageCodingError.self) { try animation.decodeFrame(at: 2, request: request) }
        #expect(error == ImageCodingError(.timedOut, "decode timed out before frame 2: the deadline passed"))
        #expect(try animation.decodeFrame(at: 2, request: DecodeRequest()).width == 16)
    }
}
