import Testing
import WebImageCore
import WebImageTestSupport
import WebPCoder

@Suite struct WebPAnimationTests {
    let coder = WebPImageCoder()
    static let durations = [100, 50, 70, 30, 120, 40]

    @Test func infoComesFromTheContainer() throws {
        let bytes = try Fixture.bytes("webp/animated.webp")
        let expected = ImageInfo(
            format: "webp", width: 40, height: 30, frameCount: 6, loopCount: 3, traits: [.hasAlpha, .animated])
        #expect(try coder.probe(bytes) == expected)
        let source = try coder.openAnimation(bytes)
        #expect(source.info == expected)
        #expect((0..<6).map { source.frameDuration(at: $0) } == Self.durations)
        #expect(source.frameDuration(at: 6) == 0)
        #expect(try coder.openAnimation(try Fixture.bytes("webp/anim-forever.webp")).info.loopCount == 0)
    }

    @Test func framesInOrderEqualLibwebpsAnimationDecoder() throws {
        let bytes = try Fixture.bytes("webp/animated.webp")
        let source = try coder.openAnimation(bytes)
        var end = 0
        for index in 0..<6 {
            let frame = try source.decodeFrame(at: index, request: DecodeRequest())
            let reference = try Reference.animationFrame(bytes, index: index, width: 40, height: 30)
            #expect(frame.pixels.packedBytes() == reference.pixels, "frame \(index)")
            #expect(frame.traits == [.hasAlpha, .animated])
            end += Self.durations[index]
            #expect(reference.timestamp == end)
        }
    }

    @Test func framesInAnyOrderEqualLibwebpsAnimationDecoder() throws {
        let bytes = try Fixture.bytes("webp/animated.webp")
        let source = try coder.openAnimation(bytes)
        for index in [4, 2, 2, 5, 0, 3, 1] {
            let frame = try source.decodeFrame(at: index, request: DecodeRequest())
            let reference = try Reference.animationFrame(bytes, index: index, width: 40, height: 30)
            #expect(frame.pixels.packedBytes() == reference.pixels, "frame \(index)")
        }
    }

    @Test func decodeGivesTheFirstFrame() throws {
        let bytes = try Fixture.bytes("webp/animated.webp")
        let image = try coder.decode(bytes)
        let reference = try Reference.animationFrame(bytes, index: 0, width: 40, height: 30)
        #expect(image.pixels.packedBytes() == reference.pixels)
        #expect(image.traits == [.hasAlpha, .animated])
    }

    @Test func theBackgroundColourIsIgnoredAsLibwebpDoes() throws {
        let source = try coder.openAnimation(try Fixture.bytes("webp/animated.webp"))
        // Frame 1 is disposed to transparent, not to the file's opaque red background.
        let frame = try source.decodeFrame(at: 2, request: DecodeRequest())
        #expect(frame.pixels.channels(x: 5, y: 7) == [0, 0, 0, 0])
    }

    @Test func aStillImageOpensAsOneFrame() throws {
        let bytes = try Fixture.bytes("webp/lossless-alpha.webp")
        let source = try coder.openAnimation(bytes)
        #expect(source.info.frameCount == 1 && source.info.traits == [.hasAlpha])
        let frame = try source.decodeFrame(at: 0, request: DecodeRequest())
        #expect(frame.pixels.packedBytes() == Pattern.bytes(Pattern.rgba))
    }

    @Test func aFrameOutsideTheAnimationIsAnArgumentError() throws {
        let source = try coder.openAnimation(try Fixture.bytes("webp/animated.webp"))
        let error = try #require(throws: ImageCodingError.self) {
            try source.decodeFrame(at: 6, request: DecodeRequest())
        }
        #expect(error == ImageCodingError(.invalidArgument, "no frame 6 in an animation of 6 frames"))
    }

    @Test func theLimitAppliesToEachCanvas() throws {
        let source = try coder.openAnimation(try Fixture.bytes("webp/animated.webp"))
        let error = try #require(throws: ImageCodingError.self) {
            try source.decodeFrame(at: 0, request: DecodeRequest(maxPixelCount: 1000))
        }
        #expect(error == ImageCodingError.tooLarge(width: 40, height: 30, limit: 1000))
    }
}
