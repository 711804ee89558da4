import HEIFCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// libheif has no scaled decode: a thumbnail request uses the smallest embedded thumbnail
/// that covers the box, else the full image (the host finishes the resize either way).
@Suite struct HEIFThumbnailTests {
    @Test(arguments: [(64, 48), (32, 24), (1, 1)])
    func anEmbeddedThumbnailThatCoversTheBoxIsUsed(width: Int, height: Int) throws {
        let image = try Fixture.decode("thumbnail.heic", request: DecodeRequest(thumbnailBox: (width, height)))
        #expect(image.width == 64 && image.height == 48)
        #expect(image.sourceWidth == 256 && image.sourceHeight == 192)
        let pixel = image.pixels.channels(x: 16, y: 12)
        let expected = Fixture.pattern(x: 64, y: 48)
        for c in 0..<3 { #expect(abs(pixel[c] - expected[c]) <= 16) }
    }

    @Test(arguments: [(65, 48), (64, 49), (256, 192)])
    func aBoxLargerThanTheThumbnailDecodesTheFullImage(width: Int, height: Int) throws {
        let image = try Fixture.decode("thumbnail.heic", request: DecodeRequest(thumbnailBox: (width, height)))
        #expect(image.width == 256 && image.height == 192)
    }

    @Test func theThumbnailAvoidsTheLimitOfTheFullImage() throws {
        let request = DecodeRequest(thumbnailBox: (64, 48), maxPixelCount: 64 * 48)
        let image = try Fixture.decode("thumbnail.heic", request: request)
        #expect(image.width == 64 && image.height == 48)
    }

    @Test func filesWithoutThumbnailsDecodeAtFullSize() throws {
        let image = try Fixture.decode("rgb.heic", request: DecodeRequest(thumbnailBox: (8, 8)))
        #expect(image.width == 96 && image.height == 64)
    }
}
