import PNGCoder
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

@Suite struct PNGEncodeTests {
    let coder = PNGImageCoder()

    func decodeFixture(_ name: String, format: PixelFormat = .rgba8) throws -> DecodedImage {
        let bytes = try Fixture.bytes("png/\(name).png")
        return try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest(pixelFormat: format)) }
    }

    @Test(arguments: [("rgba8", PixelFormat.rgba8), ("rgba16", .rgba16), ("rgb8", .rgba8), ("palette4", .rgba8)])
    func encodingThenDecodingGivesTheSamePixels(name: String, format: PixelFormat) throws {
        let original = try decodeFixture(name, format: format)
        let encoded = try coder.encode(original.pixels, request: EncodeRequest(format: "png"))
        let decoded = try encoded.withUnsafeBytes { try coder.decode($0, request: DecodeRequest(pixelFormat: format)) }
        #expect(decoded.pixels.format == format)
        #expect(decoded.pixels.packedBytes() == original.pixels.packedBytes())
    }

    @Test func opaqueImagesAreStoredWithoutAlpha() throws {
        let encoded = try coder.encode(try decodeFixture("rgb8").pixels, request: EncodeRequest(format: "png"))
        #expect(encoded[25] == 2)
        let translucent = try coder.encode(try decodeFixture("rgba8").pixels, request: EncodeRequest(format: "png"))
        #expect(translucent[25] == 6)
    }

    @Test func otherFormatsAreRefused() throws {
        let error = try #require(throws: ImageCodingError.self) {
            try coder.encode(try decodeFixture("rgb8").pixels, request: EncodeRequest(format: "jpeg"))
        }
        #expect(error.kind == .invalidArgument)
    }

    @Test("libpng writes the file straight into the request's allocator: the same bytes, no other block left")
    func writesIntoTheRequestsAllocator() throws {
        let pixels = try decodeFixture("rgba8").pixels
        let recorder = RecordingAllocator()
        let encoded = try coder.encode(pixels, request: EncodeRequest(format: "png", allocator: recorder.allocator))
        #expect(recorder.holdsOnly(encoded))
        #expect(encoded == (try coder.encode(pixels, request: EncodeRequest(format: "png"))))
    }

    @Test("an APNG is written straight into the request's allocator: the same bytes, no other block left")
    func animationsEndInTheRequestsAllocator() throws {
        let frames = [AnimationFrame(image: try decodeFixture("rgba8").pixels, durationMilliseconds: 40)]
        let recorder = RecordingAllocator()
        let encoded = try coder.encodeAnimation(
            frames, request: EncodeRequest(format: "png", allocator: recorder.allocator))
        #expect(recorder.holdsOnly(encoded))
        #expect(encoded == (try coder.encodeAnimation(frames, request: EncodeRequest(format: "png"))))
    }
}
