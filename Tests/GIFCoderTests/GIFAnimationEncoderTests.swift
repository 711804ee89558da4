import GIFCoder
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

/// The GIF written frame by frame is the same file as the one written from all the frames
/// at once, and the encoder refuses frames that do not fit.
@Suite struct GIFAnimationEncoderTests {
    let coder = GIFImageCoder()

    func frames() throws -> [AnimationFrame] {
        try TestAnimation.frames(width: 10, height: 8, durations: [40, 100, 250]) { index, x, y in
            [UInt8(index * 80), UInt8(x * 20), UInt8(y * 30), x == index ? 0 : 255]
        }
    }

    @Test func framesAddedOneByOneMakeTheSameFileAsAllAtOnce() throws {
        let frames = try frames()
        let request = EncodeRequest(format: "gif", loopCount: 2)
        #expect(coder.encodesAnimationFrameByFrame(format: "gif"))
        let encoder = try coder.makeAnimationEncoder(width: 10, height: 8, frameCount: 3, request: request)
        for frame in frames { try encoder.add(frame) }
        let streamed = try encoder.finish().bytes
        #expect(streamed == (try coder.encodeAnimation(frames, request: request).bytes))
        let animation = try coder.openAnimation(streamed)
        #expect(animation.info.frameCount == 3 && animation.info.loopCount == 2)
        #expect((0..<3).map { animation.frameDuration(at: $0) } == [40, 100, 250])
    }

    @Test func framesThatDoNotFitAreRefused() throws {
        let frames = try frames()
        let encoder = try coder.makeAnimationEncoder(
            width: 10, height: 8, frameCount: 2, request: EncodeRequest(format: "gif"))
        let wrongSize = AnimationFrame(
            image: try PixelBuffer(width: 4, height: 4, format: .rgba8), durationMilliseconds: 10)
        #expect(throws: ImageCodingError(.invalidArgument, "every frame of a GIF must have the same size")) {
            try encoder.add(wrongSize)
        }
        try encoder.add(frames[0])
        #expect(throws: ImageCodingError(.invalidArgument, "1 of 2 frames were added")) { try encoder.finish() }
        try encoder.add(frames[1])
        #expect(throws: ImageCodingError(.invalidArgument, "more frames than announced")) { try encoder.add(frames[2]) }
    }
}
