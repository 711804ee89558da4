import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport
import WebPCoder

@Suite struct WebPMalformedInputTests {
    let coder = WebPImageCoder()

    func decodeError(_ bytes: [UInt8], request: DecodeRequest = DecodeRequest()) throws -> ImageCodingError {
        try #require(throws: ImageCodingError.self) { try coder.decode(bytes, request: request) }
    }

    @Test(arguments: ["bad-truncated.webp", "bad-truncated-lossless.webp"])
    func aFileThatEndsEarlyIsAnErrorNotAPartialImage(name: String) throws {
        let error = try decodeError(try Fixture.bytes("webp/\(name)"))
        #expect(error.kind == .truncatedData)
        #expect(error.message.hasPrefix("truncated WebP: "))
    }

    @Test func aFileThatEndsInTheHeaderIsTruncated() throws {
        let bytes = try Fixture.bytes("webp/bad-truncated-header.webp")
        #expect(try decodeError(bytes).kind == .truncatedData)
        #expect(throws: ImageCodingError.self) { try coder.probe(bytes) }
        #expect(try decodeError(Array("RIFF".utf8)).kind == .truncatedData)
        #expect(try decodeError([]) == ImageCodingError(.truncatedData, "truncated WebP: the data is empty"))
        #expect(throws: ImageCodingError(.truncatedData, "truncated WebP: the data is empty")) { try coder.probe([]) }
    }

    @Test func aTruncatedAnimationIsTruncated() throws {
        let bytes = try Fixture.bytes("webp/animated.webp")
        let truncated = Array(bytes.prefix(bytes.count - 100))
        #expect(try decodeError(truncated).kind == .truncatedData)
        let error = try #require(throws: ImageCodingError.self) { try coder.openAnimation(truncated) }
        #expect(error.kind == .truncatedData)
    }

    @Test func aCorruptFrameFailsAloneAndTheOthersStillDecode() throws {
        let bytes = try Fixture.bytes("webp/bad-corrupt-frame.webp")
        let intact = try Fixture.bytes("webp/anim-forever.webp")
        let source = try coder.openAnimation(bytes)
        #expect(source.info.frameCount == 3)
        let first = try source.decodeFrame(at: 0, request: DecodeRequest())
        #expect(
            first.pixels.packedBytes() == (try Reference.animationFrame(intact, index: 0, width: 24, height: 16)).pixels
        )
        let error = try #require(throws: ImageCodingError.self) {
            try source.decodeFrame(at: 1, request: DecodeRequest())
        }
        #expect(error.kind == .corruptData)
        #expect(error.message.hasPrefix("frame 1: corrupt WebP: "))
        let last = try source.decodeFrame(at: 2, request: DecodeRequest())
        #expect(
            last.pixels.packedBytes() == (try Reference.animationFrame(intact, index: 2, width: 24, height: 16)).pixels)
        let fresh = try coder.openAnimation(bytes)
        #expect(
            try fresh.decodeFrame(at: 2, request: DecodeRequest()).pixels.packedBytes() == last.pixels.packedBytes())
    }

    @Test func aHugeCanvasFailsBeforeAllocating() throws {
        let counter = CountingAllocator()
        let request = DecodeRequest(maxPixelCount: 1_000_000, allocator: counter.allocator)
        for name in ["bad-huge.webp", "bad-huge-animation.webp"] {
            let bytes = try Fixture.bytes("webp/\(name)")
            #expect(try coder.probe(bytes).width == 16383)
            #expect(
                try decodeError(bytes, request: request)
                    == ImageCodingError.tooLarge(width: 16383, height: 16383, limit: 1_000_000))
            let thumbnail = DecodeRequest(
                thumbnailBox: (64, 64), maxPixelCount: 1_000_000, allocator: counter.allocator)
            #expect(try decodeError(bytes, request: thumbnail).kind == .tooLarge)
        }
        let source = try coder.openAnimation(try Fixture.bytes("webp/bad-huge-animation.webp"))
        let error = try #require(throws: ImageCodingError.self) { try source.decodeFrame(at: 0, request: request) }
        #expect(error == ImageCodingError.tooLarge(width: 16383, height: 16383, limit: 1_000_000))
        #expect(counter.allocatedBytes == 0)
        #expect(try decodeError(try Fixture.bytes("webp/bad-huge.webp")).kind == .tooLarge)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt32])
    func randomBytesAfterTheSignatureAreATypedError(seed: UInt32) throws {
        let riff: [UInt8] = Array("RIFF".utf8) + [0xF8, 0xFF, 0x00, 0x00] + Array("WEBPVP8 ".utf8)
        let bytes = riff + SeededNoise.bytes(count: 65536, seed: seed)
        #expect(try decodeError(bytes).kind != .internalError)
        #expect(try decodeError(bytes, request: DecodeRequest(thumbnailBox: (64, 64))).kind != .internalError)
        let error = try #require(throws: ImageCodingError.self) { try coder.openAnimation(bytes) }
        #expect(error.kind != .internalError)
    }

    @Test func otherBytesAreNotWebP() throws {
        let error = try decodeError(Array("GIF89a and more bytes".utf8))
        #expect(error == ImageCodingError(.unsupportedFormat, "not a WebP file (no RIFF WEBP header)"))
    }
}
