import Testing
import WebImageCore
import WebImageTestSupport
import WebPCoder

@Suite struct WebPScaledDecodeTests {
    let coder = WebPImageCoder()

    /// Mean absolute difference per channel.
    func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        let total = zip(a.packedBytes(), b.packedBytes()).map { abs(Int($0) - Int($1)) }.reduce(0, +)
        return Double(total) / Double(a.width * a.height * 4)
    }

    @Test(arguments: ["lossy.webp", "lossy-alpha.webp", "lossless.webp", "lossless-alpha.webp"])
    func libwebpScalesToTheBox(name: String) throws {
        let bytes = try Fixture.bytes("webp/\(name)")
        let thumbnail = try coder.decode(bytes, request: DecodeRequest(thumbnailBox: (30, 21)))
        #expect(thumbnail.width == 30 && thumbnail.height == 21)
        #expect(thumbnail.sourceWidth == 61 && thumbnail.sourceHeight == 43)
        let full = try coder.decode(bytes)
        let resized = try ImageResizer.resize(full.pixels, width: 30, height: 21)
        #expect(meanDifference(thumbnail.pixels, resized) < 4)
    }

    @Test func eachSideIsClampedToTheFullSize() throws {
        let bytes = try Fixture.bytes("webp/lossy.webp")
        let wide = try coder.decode(bytes, request: DecodeRequest(thumbnailBox: (100, 20)))
        #expect(wide.width == 61 && wide.height == 20)
        let bigger = try coder.decode(bytes, request: DecodeRequest(thumbnailBox: (61, 43)))
        #expect(bigger.pixels.packedBytes() == (try coder.decode(bytes)).pixels.packedBytes())
    }

    @Test func theLimitCountsTheScaledOutputOfALossyImage() throws {
        let bytes = try Fixture.bytes("webp/lossy.webp")
        let error = try #require(throws: ImageCodingError.self) {
            try coder.decode(bytes, request: DecodeRequest(maxPixelCount: 700))
        }
        #expect(error == ImageCodingError.tooLarge(width: 61, height: 43, limit: 700))
        let thumbnail = try coder.decode(bytes, request: DecodeRequest(thumbnailBox: (30, 21), maxPixelCount: 700))
        #expect(thumbnail.width == 30)
    }

    @Test(arguments: ["lossless.webp", "lossy-alpha.webp"])
    func theLimitCountsTheFullSizeWhenLibwebpHoldsAFullPlane(name: String) throws {
        let error = try #require(throws: ImageCodingError.self) {
            try coder.decode(
                try Fixture.bytes("webp/\(name)"), request: DecodeRequest(thumbnailBox: (30, 21), maxPixelCount: 700))
        }
        #expect(error == ImageCodingError.tooLarge(width: 61, height: 43, limit: 700))
    }

    @Test func animationsDecodeTheirFirstFrameAtFullSize() throws {
        let bytes = try Fixture.bytes("webp/animated.webp")
        let image = try coder.decode(bytes, request: DecodeRequest(thumbnailBox: (20, 15)))
        #expect(image.width == 40 && image.height == 30)
    }
}
