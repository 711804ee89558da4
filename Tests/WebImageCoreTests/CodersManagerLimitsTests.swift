import Testing
import WebImageCore

/// The limits of ``DecodeOptions`` through ``CodersManager``: the animation budgets (frame
/// count, bytes held) checked before the first frame, and the deadline, with the in-process
/// WIRAW test coder.
@Suite struct CodersManagerLimitsTests {
    let manager: CodersManager = {
        let manager = CodersManager()
        manager.register(TestRawCoder(), signatures: [MagicSignature(pattern: "5749524157")!])
        return manager
    }()

    /// An 8×4 WIRAW animation of three frames.
    func animation() throws -> any AnimatedImageSource {
        let frames = try (0..<3).map { index in
            AnimationFrame(
                image: try TestPixels.rgba8(width: 8, height: 4) { x, y in [UInt8(index), UInt8(x), UInt8(y), 255] },
                durationMilliseconds: 40)
        }
        return try manager.openAnimation(
            try manager.encodeAnimation(frames, options: EncodeOptions(format: "wiraw")).bytes)
    }

    @Test func theDefaultsAreDocumentedValues() {
        let options = DecodeOptions()
        #expect(options.maxPixelCount == 100_000_000)
        #expect(options.maxByteCount == 1 << 30)
        #expect(options.maxFrameCount == 5_000)
        #expect(options.maxAnimationByteCount == 512 << 20)
        #expect(options.timeLimit == .seconds(30))
        #expect(options.deadline == nil)
    }

    @Test func tooManyFramesAreRefusedBeforeTheFirstFrame() throws {
        var options = DecodeOptions()
        options.maxFrameCount = 2
        let animation = try animation()
        for decode in [
            { _ = try manager.decodeAllFrames(of: animation, options: options) },
            { _ = try manager.decodeFrame(0, of: animation, options: options) },
        ] as [() throws -> Void] {
            let error = try #require(throws: ImageCodingError.self) { try decode() }
            #expect(error == ImageCodingError(.tooLarge, "animation too large: 3 frames exceed the limit of 2 frames"))
        }
    }

    @Test func preloadingCountsEveryFrameAndTheCanvas() throws {
        var options = DecodeOptions()
        options.maxAnimationByteCount = 4 * 128 - 1
        let error = try #require(throws: ImageCodingError.self) {
            try manager.decodeAllFrames(of: try animation(), options: options)
        }
        #expect(
            error
                == ImageCodingError(
                    .tooLarge,
                    "animation too large: holding 3 frames of 8×4 pixels and the 8×4 canvas needs 512 bytes, "
                        + "over the limit of 511 bytes"))
        options.maxAnimationByteCount = 4 * 128
        #expect(try manager.decodeAllFrames(of: try animation(), options: options).count == 3)
    }

    @Test func oneFrameAtATimeCountsTheFrameAndTheCanvas() throws {
        var options = DecodeOptions()
        options.maxAnimationByteCount = 255
        let error = try #require(throws: ImageCodingError.self) {
            try manager.decodeFrame(1, of: try animation(), options: options)
        }
        #expect(error.kind == .tooLarge)
        #expect(error.message.hasSuffix("needs 256 bytes, over the limit of 255 bytes"))
        options.maxAnimationByteCount = 256
        #expect(try manager.decodeFrame(1, of: try animation(), options: options).width == 8)
    }

    @Test func thumbnailFramesAreCountedAtTheirSmallSize() throws {
        var options = DecodeOptions(thumbnail: ThumbnailSize(width: 2, height: 2))
        options.maxAnimationByteCount = 256
        // 3 frames of 2×1 (24 bytes) and the 8×4 canvas (128 bytes) fit; each frame decode holds 256.
        #expect(try manager.decodeAllFrames(of: try animation(), options: options).map(\.image.width) == [2, 2, 2])
    }

    @Test func aPassedDeadlineStopsTheFrameLoop() throws {
        var options = DecodeOptions()
        options.deadline = DecodeDeadline(monotonicNanoseconds: 1)
        let error = try #require(throws: ImageCodingError.self) {
            try manager.decodeAllFrames(of: try animation(), options: options)
        }
        #expect(error == ImageCodingError(.timedOut, "decode timed out before frame 0 of 3: the deadline passed"))
    }

    @Test func aZeroTimeLimitTimesOutWithItsDuration() throws {
        var options = DecodeOptions()
        options.timeLimit = .zero
        let error = try #require(throws: ImageCodingError.self) {
            try manager.decodeFrame(2, of: try animation(), options: options)
        }
        #expect(
            error == ImageCodingError(.timedOut, "decode timed out before frame 2 of 3: the time limit of 0 s passed"))
        options.timeLimit = .milliseconds(1500)
        options.deadline = DecodeDeadline.after(.zero)
        let shared = try #require(throws: ImageCodingError.self) {
            try manager.decodeFrame(0, of: try animation(), options: options)
        }
        #expect(shared.message == "decode timed out before frame 0 of 3: the time limit of 0 s passed")
    }

    @Test func withoutATimeLimitThereIsNoDeadline() throws {
        var options = DecodeOptions()
        options.timeLimit = nil
        #expect(options.startDeadline() == nil)
        #expect(try manager.decodeAllFrames(of: try animation(), options: options).count == 3)
        options.timeLimit = .seconds(60)
        let deadline = try #require(options.startDeadline())
        #expect(!deadline.hasPassed && deadline.timeLimit == .seconds(60))
        #expect(DecodeDeadline.after(.milliseconds(1500)).timeLimit == .milliseconds(1500))
    }

    @Test func theByteLimitCoversTheOutputBuffer() throws {
        var request = DecodeRequest()
        request.maxByteCount = 8 * 4 * 4 - 1
        let error = try #require(throws: ImageCodingError.self) {
            try request.makeBuffer(width: 8, height: 4, format: .rgba8)
        }
        #expect(
            error
                == ImageCodingError(
                    .tooLarge, "image too large: decoding the output needs 128 bytes, over the limit of 127 bytes"))
        request.maxByteCount = 0
        #expect(try request.makeBuffer(width: 8, height: 4, format: .rgba16).bytesPerRow == 64)
    }

    @Test func aResizeStillRunningAtTheDeadlineStops() throws {
        let image = try TestPixels.rgba8(width: 8, height: 4) { x, y in [UInt8(x), UInt8(y), 0, 255] }
        let error = try #require(throws: ImageCodingError.self) {
            try ImageResizer.resize(image, width: 2, height: 1, deadline: DecodeDeadline(monotonicNanoseconds: 1))
        }
        #expect(error == ImageCodingError(.timedOut, "decode timed out while resizing 8×4 to 2×1: the deadline passed"))
        let later = DecodeDeadline.after(.seconds(60))
        #expect(try ImageResizer.resize(image, width: 2, height: 1, deadline: later).width == 2)
    }

    @Test func aCoderWithoutAFrameByFrameEncoderGetsEveryFrameWithinTheBudget() throws {
        var options = DecodeOptions()
        let converted = try manager.convertAnimation(
            try animation(), decodeOptions: options, encodeOptions: EncodeOptions(format: "wiraw"))
        #expect(!converted.streamed)
        #expect((converted.width, converted.height, converted.frameCount) == (8, 4, 3))
        options.maxAnimationByteCount = 511
        let error = try #require(throws: ImageCodingError.self) {
            try manager.convertAnimation(
                try animation(), decodeOptions: options, encodeOptions: EncodeOptions(format: "wiraw"))
        }
        #expect(error.message.hasPrefix("animation too large: holding 3 frames of 8×4 pixels"))
    }
}
