import GIFCoder
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

@Suite struct GIFMalformedInputTests {
    let coder = GIFImageCoder()

    func decodeError(_ bytes: [UInt8]) throws -> ImageCodingError {
        try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        }
    }

    @Test func aFileCutInsideAFrameIsTruncatedForAFullDecode() throws {
        let bytes = try Fixture.bytes("gif/bad-truncated.gif")
        let error = try decodeError(bytes)
        #expect(error == ImageCodingError(.truncatedData, "truncated GIF: the file ends inside an image descriptor"))
        let info = try bytes.withUnsafeBytes { try coder.probe($0) }
        #expect(info.frameCount == 2)
    }

    /// As browsers show the frames that arrived, the animation of a file cut inside its third
    /// frame holds the two complete frames (the count `probe` reports), composited as in the
    /// whole file.
    @Test func aFileCutInsideAFrameOpensWithItsCompleteFrames() throws {
        let animation = try coder.openAnimation(try Fixture.bytes("gif/bad-truncated.gif"))
        #expect(animation.info.frameCount == 2)
        let expected = try CoalescedFrames.frames("anim", count: 4)
        #expect(try animation.decodeFrame(at: 0, request: DecodeRequest()).visibleBytes == expected[0])
        #expect(try animation.decodeFrame(at: 1, request: DecodeRequest()).visibleBytes == expected[1])
        #expect(animation.frameDuration(at: 1) == 100)
    }

    @Test func aFileWithoutACompleteFrameDoesNotOpenAsAnAnimation() throws {
        let whole = HostileImages.gif(width: 4, height: 4, frames: 1)
        let cut = Array(whole.prefix(HostileImages.gifFrameOffset(0) + 12))
        let error = try #require(throws: ImageCodingError.self) { try coder.openAnimation(cut) }
        #expect(error == ImageCodingError(.truncatedData, "truncated GIF: the file has no complete frame"))
    }

    @Test func aCorruptFrameFailsAloneAndLaterFramesStillDecode() throws {
        let animation = try coder.openAnimation(try Fixture.bytes("gif/bad-corrupt-frame1.gif"))
        let expected = try CoalescedFrames.frames("anim", count: 4)
        #expect(try animation.decodeFrame(at: 0, request: DecodeRequest()).visibleBytes == expected[0])
        let error = try #require(throws: ImageCodingError.self) {
            try animation.decodeFrame(at: 1, request: DecodeRequest())
        }
        #expect(error.kind == .corruptData)
        #expect(error.message.hasPrefix("corrupt GIF: frame 1"))
        #expect(try animation.decodeFrame(at: 2, request: DecodeRequest()).visibleBytes == expected[2])
        #expect(try animation.decodeFrame(at: 3, request: DecodeRequest()).visibleBytes == expected[3])
    }

    @Test func aHugeCanvasIsTooLargeBeforeAnythingIsAllocated() throws {
        let error = try decodeError(try Fixture.bytes("gif/bad-huge-canvas.gif"))
        #expect(error == ImageCodingError(.tooLarge, "the canvas has more pixels than the limit"))
    }

    @Test func emptyShortAndForeignData() throws {
        #expect(try decodeError([]).kind == .truncatedData)
        #expect(try decodeError(Array("GIF8".utf8)).kind == .truncatedData)
        #expect(try decodeError(Array("GIF89a".utf8)).kind == .truncatedData)
        #expect(try decodeError(Array("\u{89}PNG and more bytes".utf8)).kind == .unsupportedFormat)
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt32])
    func randomBytesAfterTheSignatureAreATypedError(seed: UInt32) throws {
        let bytes =
            Array("GIF89a".utf8) + [8, 0, 6, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
            + SeededNoise.bytes(count: 4096, seed: seed)
        let result = Result { try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) } }
        if case .failure(let error) = result {
            #expect((error as? ImageCodingError)?.kind != .internalError)
        }
    }
}
