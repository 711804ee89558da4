import Testing
import WebImageCoderVerifier
import WebImageCore
import WebPCoder

@Suite struct WebPEncodeTests {
    let coder = WebPImageCoder()

    @Test func losslessKeepsEveryPixelIncludingColourUnderTransparency() throws {
        let source = try Pattern.buffer(Pattern.rgba)
        let bytes = try coder.encode(source, request: EncodeRequest(format: "webp", lossless: true)).bytes
        let info = try coder.probe(bytes)
        #expect(info == ImageInfo(format: "webp", width: 61, height: 43, traits: [.hasAlpha]))
        #expect(try coder.decode(bytes).pixels.packedBytes() == source.packedBytes())
    }

    @Test func lossyKeepsAlphaAndStaysCloseToTheSource() throws {
        let source = try Pattern.buffer(Pattern.rgba)
        let bytes = try coder.encode(source, request: EncodeRequest(format: "webp", quality: 0.9)).bytes
        let decoded = try coder.decode(bytes).pixels.packedBytes()
        let original = source.packedBytes()
        #expect(stride(from: 3, to: decoded.count, by: 4).allSatisfy { decoded[$0] == original[$0] })
        let opaque = try coder.decode(
            try coder.encode(try Pattern.buffer(Pattern.rgb), request: EncodeRequest(format: "webp")).bytes)
        let error = zip(opaque.pixels.packedBytes(), Pattern.bytes(Pattern.rgb)).map { abs(Int($0) - Int($1)) }
        #expect(Double(error.reduce(0, +)) / Double(error.count) < 2)
        #expect(try coder.probe(bytes).traits == [.hasAlpha])
    }

    @Test func higherQualityGivesLargerFiles() throws {
        let source = try Pattern.buffer(Pattern.rgb)
        let sizes = try [0.1, 0.5, 1.0].map {
            try coder.encode(source, request: EncodeRequest(format: "webp", quality: $0)).count
        }
        #expect(sizes[0] < sizes[1] && sizes[1] < sizes[2])
    }

    @Test func sixteenBitPixelsAreRoundedToEightBits() throws {
        let source = try PixelBuffer(width: 2, height: 1, format: .rgba16)
        let samples: [UInt16] = [0, 257, 32896, 65535, 65535, 128, 65407, 32768]
        samples.withUnsafeBytes { source.baseAddress.copyMemory(from: $0.baseAddress!, byteCount: 16) }
        let bytes = try coder.encode(source, request: EncodeRequest(format: "webp", lossless: true)).bytes
        #expect(try coder.decode(bytes).pixels.packedBytes() == [0, 1, 128, 255, 255, 0, 255, 128])
    }

    @Test func animationsKeepDurationsLoopCountAndFrames() throws {
        let frames = try (0..<3).map { index in
            AnimationFrame(
                image: try Pattern.buffer(width: 24, height: 16) { x, y in
                    [(x * 10 + index * 60) % 256, y * 15, index * 100, 255 - index * 50]
                },
                durationMilliseconds: 40 + index * 30)
        }
        let bytes = try coder.encodeAnimation(
            frames, request: EncodeRequest(format: "webp", lossless: true, loopCount: 2)
        ).bytes
        let source = try coder.openAnimation(bytes)
        #expect(
            source.info
                == ImageInfo(
                    format: "webp", width: 24, height: 16, frameCount: 3, loopCount: 2, traits: [.hasAlpha, .animated]))
        #expect((0..<3).map { source.frameDuration(at: $0) } == [40, 70, 100])
        for index in 0..<3 {
            #expect(
                try source.decodeFrame(at: index, request: DecodeRequest()).pixels.packedBytes()
                    == frames[index].image.packedBytes())
        }
    }

    @Test func lossyAnimationsPlayForeverByDefault() throws {
        let frames = try (0..<2).map { index in
            AnimationFrame(
                image: try Pattern.buffer { x, y in [x * 4, (y + index * 20) * 5 % 256, 90, 255] },
                durationMilliseconds: 100)
        }
        let bytes = try coder.encodeAnimation(frames, request: EncodeRequest(format: "webp", quality: 0.8)).bytes
        let info = try coder.probe(bytes)
        #expect(info.frameCount == 2 && info.loopCount == 0 && info.traits.contains(.animated))
    }

    @Test func framesOfDifferentSizesAreRejected() throws {
        let frames = [
            AnimationFrame(image: try Pattern.buffer(Pattern.rgb), durationMilliseconds: 10),
            AnimationFrame(image: try Pattern.buffer(width: 10, height: 10, Pattern.rgb), durationMilliseconds: 10),
        ]
        let error = try #require(throws: ImageCodingError.self) {
            try coder.encodeAnimation(frames, request: EncodeRequest(format: "webp"))
        }
        #expect(error == ImageCodingError(.invalidArgument, "all frames of a WebP animation must have the same size"))
    }

    @Test func otherFormatsAreRejected() throws {
        let error = try #require(throws: ImageCodingError.self) {
            try coder.encode(try Pattern.buffer(Pattern.rgb), request: EncodeRequest(format: "png"))
        }
        #expect(error == ImageCodingError(.invalidArgument, "the WebP coder cannot encode 'png'"))
    }

    @Test(
        "libwebp writes stills straight into the request's allocator: the same bytes, no other block left",
        arguments: [false, true])
    func stillsAreWrittenIntoTheRequestsAllocator(lossless: Bool) throws {
        let source = try Pattern.buffer(Pattern.rgba)
        let recorder = RecordingAllocator()
        let encoded = try coder.encode(
            source, request: EncodeRequest(format: "webp", lossless: lossless, allocator: recorder.allocator))
        #expect(recorder.holdsOnly(encoded))
        #expect(encoded == (try coder.encode(source, request: EncodeRequest(format: "webp", lossless: lossless))))
    }

    @Test("an animation stays in the buffer WebPAnimEncoderAssemble returns: nothing is allocated from the request")
    func animationsKeepLibwebpsBuffer() throws {
        let frames = [AnimationFrame(image: try Pattern.buffer(Pattern.rgba), durationMilliseconds: 40)]
        let recorder = RecordingAllocator()
        let encoded = try coder.encodeAnimation(
            frames, request: EncodeRequest(format: "webp", allocator: recorder.allocator))
        #expect(!encoded.isAllocated(by: recorder.allocator))
        #expect(recorder.allocationCount == 0)
    }
}
