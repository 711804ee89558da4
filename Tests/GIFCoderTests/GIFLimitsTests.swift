import GIFCoder
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

/// The byte limit and the deadline on GIF frames: the shim's canvas and the output are
/// counted before either is allocated.
@Suite struct GIFLimitsTests {
    let coder = GIFImageCoder()

    @Test func aFrameCountsTheCanvasAndTheOutput() throws {
        let bytes = HostileImages.gif(width: 9999, height: 9999, frames: 100)
        let animation = try coder.openAnimation(bytes)
        #expect(animation.info.frameCount == 100)
        var request = DecodeRequest()
        request.maxByteCount = 64 << 20
        let expected = ImageCodingError(
            .tooLarge,
            "image too large: decoding the canvas and a frame needs \(9999 * 9999 * 8) bytes, over the limit of "
                + "67108864 bytes")
        #expect(throws: expected) { try animation.decodeFrame(at: 0, request: request) }
        #expect(throws: expected) { try bytes.withUnsafeBytes { try coder.decode($0, request: request) } }
        let decoder = try coder.makeIncrementalDecoder(request: request)
        try bytes.withUnsafeBytes { try decoder.append($0, isFinal: true) }
        #expect(throws: expected) { try decoder.currentImage() }
    }

    @Test func aPassedDeadlineStopsBeforeAFrame() throws {
        let animation = try coder.openAnimation(HostileImages.gif(width: 4, height: 4, frames: 3))
        var request = DecodeRequest()
        request.deadline = DecodeDeadline(monotonicNanoseconds: 1)
        #expect(throws: ImageCodingError(.timedOut, "decode timed out before frame 1: the deadline passed")) {
            try animation.decodeFrame(at: 1, request: request)
        }
        #expect(try animation.decodeFrame(at: 1, request: DecodeRequest()).width == 4)
    }
}
