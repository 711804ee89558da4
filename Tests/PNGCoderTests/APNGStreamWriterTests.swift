import PNGCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// The APNG written frame by frame holds exactly the frames, durations and loop count that
/// were added, as the all-at-once writer does, and refuses frames that do not fit.
@Suite struct APNGStreamWriterTests {
    let coder = PNGImageCoder()

    func frames() throws -> [AnimationFrame] {
        try TestAnimation.frames(width: 9, height: 5, durations: [30, 120, 500]) { index, x, y in
            [UInt8(x * 20), UInt8(y * 40), UInt8(index * 100), x == index ? 0 : 255]
        }
    }

    @Test func framesAddedOneByOneComeBackExactly() throws {
        let frames = try frames()
        #expect(coder.encodesAnimationFrameByFrame(format: "png"))
        let encoder = try coder.makeAnimationEncoder(
            width: 9, height: 5, frameCount: 3, request: EncodeRequest(format: "png", loopCount: 4))
        for frame in frames { try encoder.add(frame) }
        let bytes = try encoder.finish().bytes
        let animation = try coder.openAnimation(bytes)
        #expect(animation.info.frameCount == 3 && animation.info.loopCount == 4)
        #expect((0..<3).map { animation.frameDuration(at: $0) } == [30, 120, 500])
        for (index, frame) in frames.enumerated() {
            let decoded = try animation.decodeFrame(at: index, request: DecodeRequest())
            #expect(decoded.pixels.packedBytes() == frame.image.packedBytes(), "frame \(index)")
        }
    }

    @Test func framesThatDoNotFitAreRefused() throws {
        let frames = try frames()
        let encoder = try coder.makeAnimationEncoder(
            width: 9, height: 5, frameCount: 2, request: EncodeRequest(format: "png"))
        let wrongSize = AnimationFrame(
            image: try PixelBuffer(width: 4, height: 4, format: .rgba8), durationMilliseconds: 10)
        #expect(throws: ImageCodingError(.invalidArgument, "every frame of an APNG must have the same size")) {
            try encoder.add(wrongSize)
        }
        try encoder.add(frames[0])
        #expect(throws: ImageCodingError(.invalidArgument, "1 of 2 frames were added")) { try encoder.finish() }
        try encoder.add(frames[1])
        #expect(throws: ImageCodingError(.invalidArgument, "more than the 2 frames announced")) {
            try encoder.add(frames[2])
        }
        #expect(throws: ImageCodingError(.invalidArgument, "the PNG coder cannot encode 'gif'")) {
            try coder.makeAnimationEncoder(width: 9, height: 5, frameCount: 2, request: EncodeRequest(format: "gif"))
        }
    }
}
