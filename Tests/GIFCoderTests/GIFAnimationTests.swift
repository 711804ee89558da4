import GIFCoder
import Testing
import WebImageCore
import WebImageTestSupport

@Suite struct GIFAnimationTests {
    let coder = GIFImageCoder()

    @Test func everyCompositedFrameEqualsImageMagickCoalesce() throws {
        let animation = try coder.openAnimation(try Fixture.bytes("gif/anim.gif"))
        let expected = try CoalescedFrames.frames("anim", count: 4)
        #expect(animation.info.frameCount == 4 && animation.info.loopCount == 3)
        for index in 0..<4 {
            let frame = try animation.decodeFrame(at: index, request: DecodeRequest())
            #expect(frame.visibleBytes == expected[index], "frame \(index)")
        }
    }

    @Test func framesDecodeInAnyOrder() throws {
        let animation = try coder.openAnimation(try Fixture.bytes("gif/anim.gif"))
        let expected = try CoalescedFrames.frames("anim", count: 4)
        for index in [3, 0, 2, 2, 1] {
            #expect(
                try animation.decodeFrame(at: index, request: DecodeRequest()).visibleBytes == expected[index])
        }
    }

    @Test func durationsInMillisecondsWithShortDelaysAsBrowsersShowThem() throws {
        let animation = try coder.openAnimation(try Fixture.bytes("gif/anim.gif"))
        #expect((0..<4).map { animation.frameDuration(at: $0) } == [50, 100, 100, 200])
    }

    @Test func loopCountZeroMeansForever() throws {
        let animation = try coder.openAnimation(try Fixture.bytes("gif/loop-forever.gif"))
        #expect(animation.info.loopCount == 0)
        let expected = try CoalescedFrames.frames("loop-forever", count: 2)
        #expect(try animation.decodeFrame(at: 1, request: DecodeRequest()).visibleBytes == expected[1])
    }

    @Test func aFrameThatDoesNotExistIsAnError() throws {
        let animation = try coder.openAnimation(try Fixture.bytes("gif/anim.gif"))
        let error = try #require(throws: ImageCodingError.self) {
            try animation.decodeFrame(at: 4, request: DecodeRequest())
        }
        #expect(error.kind == .invalidArgument)
    }

    @Test func theLimitAppliesToEachFrame() throws {
        let animation = try coder.openAnimation(try Fixture.bytes("gif/anim.gif"))
        let error = try #require(throws: ImageCodingError.self) {
            try animation.decodeFrame(at: 1, request: DecodeRequest(maxPixelCount: 47))
        }
        #expect(error == ImageCodingError.tooLarge(width: 8, height: 6, limit: 47))
    }
}
