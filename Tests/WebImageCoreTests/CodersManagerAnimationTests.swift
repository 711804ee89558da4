import Testing
import WebImageCore

/// Animations through ``CodersManager``, with the in-process WIRAW test coder.
@Suite struct CodersManagerAnimationTests {
    let manager: CodersManager = {
        let manager = CodersManager()
        manager.register(TestRawCoder(), signatures: [MagicSignature(pattern: "5749524157")!])
        return manager
    }()

    func frames() throws -> [AnimationFrame] {
        try [40, 60, 80].enumerated().map { index, duration in
            AnimationFrame(
                image: try TestPixels.rgba8(width: 8, height: 4) { x, y in [UInt8(index), UInt8(x), UInt8(y), 255] },
                durationMilliseconds: duration)
        }
    }

    @Test func encodedFramesOpenAgainWithTheirDurations() throws {
        let bytes = try manager.encodeAnimation(try frames(), options: EncodeOptions(format: "wiraw")).bytes
        let animation = try manager.openAnimation(bytes)
        #expect(animation.info.frameCount == 3)
        #expect((0..<3).map { animation.frameDuration(at: $0) } == [40, 60, 80])
        let second = try manager.decodeFrame(1, of: animation)
        #expect(second.pixels.channels(x: 5, y: 2) == [1, 5, 2, 255])
    }

    @Test func allFramesCanBePreloaded() throws {
        let bytes = try manager.encodeAnimation(try frames(), options: EncodeOptions(format: "wiraw")).bytes
        let preloaded = try manager.decodeAllFrames(of: try manager.openAnimation(bytes))
        #expect(preloaded.map(\.durationMilliseconds) == [40, 60, 80])
        #expect(preloaded.map { $0.image.channels(x: 1, y: 1)[0] } == [0, 1, 2])
    }

    @Test func framesAreShrunkForEncodingAndForThumbnails() throws {
        let bytes = try manager.encodeAnimation(
            try frames(), options: EncodeOptions(format: "wiraw", maxPixelSize: (4, 4))
        ).bytes
        let animation = try manager.openAnimation(bytes)
        #expect((animation.info.width, animation.info.height) == (4, 2))
        let thumbnail = try manager.decodeFrame(
            2, of: animation, options: DecodeOptions(thumbnail: ThumbnailSize(width: 2, height: 2)))
        #expect((thumbnail.width, thumbnail.height) == (2, 1))
    }

    @Test func formatsWithoutAnimationsAreRefused() throws {
        let manager = CodersManager()
        manager.register(StubCoder(name: "still", accepts: true))
        let error = try #require(throws: ImageCodingError.self) { try manager.openAnimation([1, 2, 3]) }
        #expect(error == ImageCodingError(.unsupportedOperation, "the still coder cannot decode animations"))
        let encodeError = try #require(throws: ImageCodingError.self) {
            try manager.encodeAnimation(try frames(), options: EncodeOptions(format: "still"))
        }
        #expect(encodeError.kind == .unsupportedOperation)
    }
}
