import Testing
import WebImageCore
import WebImageTestSupport

@testable import GIFCoder

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

    @Test func anAnimationReadsTheCallersArrayInPlace() throws {
        let bytes = try Fixture.bytes("gif/anim.gif")
        let animation = try #require(try coder.openAnimation(bytes) as? GIFAnimationSource)
        #expect(animation.file.bytes.baseAddress == bytes.withUnsafeBytes { $0.baseAddress })
        let expected = try CoalescedFrames.frames("anim", count: 4)
        #expect(try animation.decodeFrame(at: 3, request: DecodeRequest()).visibleBytes == expected[3])
    }

    /// The plugin ABI's way: the host keeps the bytes until the animation is closed.
    @Test func anAnimationOverKeptBytesReadsThemInPlace() throws {
        let bytes = try Fixture.bytes("gif/anim.gif")
        try bytes.withUnsafeBytes { kept in
            let animation = try #require(try coder.openAnimation(reading: kept) as? GIFAnimationSource)
            #expect(animation.file.bytes.baseAddress == kept.baseAddress)
            let expected = try CoalescedFrames.frames("anim", count: 4)
            #expect(try animation.decodeFrame(at: 2, request: DecodeRequest()).visibleBytes == expected[2])
        }
    }
}
