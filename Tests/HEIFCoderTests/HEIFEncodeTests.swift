import HEIFCoder
import Testing
import WebImageCoderVerifier
import WebImageCore
import WebImageTestSupport

@Suite struct HEIFEncodeTests {
    let coder = HEIFImageCoder()

    func roundTrip(_ image: PixelBuffer, _ request: EncodeRequest, pixelFormat: PixelFormat = .rgba8) throws
        -> (bytes: EncodedImageData, image: DecodedImage)
    {
        let bytes = try coder.encode(image, request: request)
        let decoded = try bytes.withUnsafeBytes {
            try coder.decode($0, request: DecodeRequest(pixelFormat: pixelFormat))
        }
        return (bytes, decoded)
    }

    @Test(arguments: ["heic", "avif"])
    func lossyEncodingKeepsThePicture(format: String) throws {
        let source = try Fixture.decode("rgb.heic").pixels
        let (bytes, decoded) = try roundTrip(source, EncodeRequest(format: format, quality: 0.9))
        #expect(bytes.withUnsafeBytes { coder.canDecode($0) })
        #expect(decoded.format == format)
        #expect(decoded.width == 96 && decoded.height == 64)
        #expect(decoded.traits == [])
        #expect(psnr(decoded.pixels.samples, source.samples, maximum: 255) >= 38)
    }

    @Test(arguments: ["heic", "avif"])
    func qualityChangesTheSize(format: String) throws {
        let source = try Fixture.decode("thumbnail.heic").pixels
        let small = try coder.encode(source, request: EncodeRequest(format: format, quality: 0.1))
        let large = try coder.encode(source, request: EncodeRequest(format: format, quality: 1.0))
        #expect(small.count < large.count)
    }

    @Test(arguments: ["heic", "avif"])
    func losslessEncodingGivesTheSamePixels(format: String) throws {
        let source = try Fixture.decode("alpha.heic").pixels
        let (_, decoded) = try roundTrip(source, EncodeRequest(format: format, lossless: true))
        #expect(decoded.pixels.packedBytes() == source.packedBytes())
    }

    @Test(arguments: ["heic", "avif"])
    func alphaIsStoredOnlyWhenSomePixelIsTranslucent(format: String) throws {
        let translucent = try roundTrip(try Fixture.decode("alpha.heic").pixels, EncodeRequest(format: format))
        #expect(translucent.image.traits == [.hasAlpha])
        let opaque = try roundTrip(try Fixture.decode("rgb.heic").pixels, EncodeRequest(format: format))
        #expect(opaque.image.traits == [])
    }

    @Test func sixteenBitImagesAreStoredWithTenBits() throws {
        let source = try Fixture.decode("deep10.heic", request: DecodeRequest(pixelFormat: .rgba16)).pixels
        let (bytes, decoded) = try roundTrip(source, EncodeRequest(format: "heic"), pixelFormat: .rgba16)
        #expect(try bytes.withUnsafeBytes { try coder.probe($0) }.bitsPerComponent == 10)
        #expect(decoded.pixels.format == .rgba16)
        #expect(psnr(decoded.pixels.samples, source.samples, maximum: 65535) >= 38)
    }

    @Test func otherFormatsAreRefused() throws {
        let error = try #require(throws: ImageCodingError.self) {
            try coder.encode(try Fixture.decode("rgb.heic").pixels, request: EncodeRequest(format: "png"))
        }
        #expect(error == ImageCodingError(.invalidArgument, "the HEIF coder cannot encode 'png'"))
    }

    @Test(
        "libheif writes the file straight into the request's allocator, in one block",
        arguments: ["heic", "avif"])
    func writesIntoTheRequestsAllocator(format: String) throws {
        let source = try Fixture.decode("rgb.heic").pixels
        let recorder = RecordingAllocator()
        let encoded = try coder.encode(source, request: EncodeRequest(format: format, allocator: recorder.allocator))
        #expect(recorder.holdsOnly(encoded))
        #expect(recorder.allocationCount == 1)
        #expect(encoded.withUnsafeBytes { coder.canDecode($0) })
    }
}
