import GIFCoder
import Testing
import WebImageCoderVerifier
import WebImageCore

@Suite struct GIFEncodeTests {
    let coder = GIFImageCoder()

    /// A 10 × 8 frame in a few flat colours; pixels with x < `transparentColumns` are fully transparent.
    func frame(_ shade: UInt8, transparentColumns: Int = 0) throws -> PixelBuffer {
        let buffer = try PixelBuffer(width: 10, height: 8, format: .rgba8)
        for y in 0..<8 {
            let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<10 {
                let colour: [UInt8] = x < 5 ? [shade, 0, 0] : [0, 255 - shade, 255]
                for channel in 0..<3 { row[x * 4 + channel] = colour[channel] }
                row[x * 4 + 3] = x < transparentColumns ? 0 : 255
            }
        }
        return buffer
    }

    func maximumDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test func aStaticImageRoundTripsWithinTheQuantiserSteps() throws {
        let original = try frame(200)
        let encoded = try coder.encode(original, request: EncodeRequest(format: "gif"))
        #expect(Array(encoded.prefix(6)) == Array("GIF89a".utf8))
        let info = try encoded.withUnsafeBytes { try coder.probe($0) }
        #expect(info.frameCount == 1 && info.loopCount == 1)
        let decoded = try encoded.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        #expect(maximumDifference(decoded.pixels.packedBytes(), original.packedBytes()) <= 8)
    }

    @Test func anAnimationKeepsFramesDurationsAndLoopCount() throws {
        let frames = try [
            AnimationFrame(image: frame(40), durationMilliseconds: 30),
            AnimationFrame(image: frame(120, transparentColumns: 3), durationMilliseconds: 100),
            AnimationFrame(image: frame(240), durationMilliseconds: 250),
        ]
        let encoded = try coder.encodeAnimation(frames, request: EncodeRequest(format: "gif", loopCount: 2)).bytes
        let animation = try coder.openAnimation(encoded)
        #expect(animation.info.frameCount == 3 && animation.info.loopCount == 2)
        #expect((0..<3).map { animation.frameDuration(at: $0) } == [30, 100, 250])
        for (index, original) in frames.enumerated() {
            let decoded = try animation.decodeFrame(at: index, request: DecodeRequest())
            #expect(
                maximumDifference(decoded.visibleBytes, CoalescedFrames.visible(original.image.packedBytes())) <= 8,
                "frame \(index)")
        }
        let translucent = try animation.decodeFrame(at: 1, request: DecodeRequest())
        #expect(translucent.pixels.channels(x: 0, y: 0)[3] == 0)
        #expect(translucent.pixels.channels(x: 3, y: 0)[3] == 255)
    }

    @Test func framesOfDifferentSizesAreRefused() throws {
        let small = try PixelBuffer(width: 2, height: 2, format: .rgba8)
        let error = try #require(throws: ImageCodingError.self) {
            try coder.encodeAnimation(
                [
                    AnimationFrame(image: try frame(1), durationMilliseconds: 10),
                    AnimationFrame(image: small, durationMilliseconds: 10),
                ],
                request: EncodeRequest(format: "gif"))
        }
        #expect(error.kind == .invalidArgument)
    }

    @Test(
        "giflib writes stills and animations straight into the request's allocator: the same bytes, no other block left",
        arguments: [1, 3])
    func writesIntoTheRequestsAllocator(frameCount: Int) throws {
        let frames = try (0..<frameCount).map {
            AnimationFrame(image: try frame(UInt8(60 * $0)), durationMilliseconds: 50)
        }
        let recorder = RecordingAllocator()
        let encoded = try coder.encodeAnimation(
            frames, request: EncodeRequest(format: "gif", allocator: recorder.allocator))
        #expect(recorder.holdsOnly(encoded))
        #expect(encoded == (try coder.encodeAnimation(frames, request: EncodeRequest(format: "gif"))))
    }
}
