import HEIFCoder
import Testing
import WebImageCore
import WebImageTestSupport

@Suite struct HEIFDecodeTests {
    let coder = HEIFImageCoder()

    /// The largest difference between a decoded image and the source pattern, over R, G, B
    /// (and A when `alpha`).
    func worstError(_ image: DecodedImage, alpha: Bool) -> Int {
        var worst = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image.pixels.channels(x: x, y: y)
                let expected = Fixture.pattern(x: x, y: y)
                for c in 0..<(alpha ? 4 : 3) { worst = max(worst, abs(pixel[c] - expected[c])) }
                if !alpha { #expect(pixel[3] == 255) }
            }
        }
        return worst
    }

    @Test(arguments: [("rgb.heic", "heic"), ("rgb.avif", "avif")])
    func opaqueImagesDecodeToTheirPattern(name: String, format: String) throws {
        let image = try Fixture.decode(name)
        #expect(image.format == format)
        #expect(image.width == 96 && image.height == 64)
        #expect(image.pixels.format == .rgba8)
        #expect(image.orientation == .up)
        #expect(image.traits == [])
        #expect(worstError(image, alpha: false) <= 12)
    }

    @Test(arguments: ["alpha.heic", "alpha.avif"])
    func alphaIsDecoded(name: String) throws {
        let image = try Fixture.decode(name)
        #expect(image.traits == [.hasAlpha])
        #expect(worstError(image, alpha: true) <= 12)
    }

    @Test(arguments: ["deep10.heic", "deep12.avif"])
    func deepSourcesGiveRGBA16OnlyWhenAsked(name: String) throws {
        let deep = try Fixture.decode(name, request: DecodeRequest(pixelFormat: .rgba16))
        #expect(deep.pixels.format == .rgba16)
        let eight = try Fixture.decode(name)
        #expect(eight.pixels.format == .rgba8)
        for (x, y) in [(0, 0), (50, 20), (95, 63)] {
            let wide = deep.pixels.channels(x: x, y: y)
            let narrow = eight.pixels.channels(x: x, y: y)
            #expect(wide[3] == 65535 && narrow[3] == 255)
            for c in 0..<3 {
                #expect(abs(wide[c] - Fixture.pattern(x: x, y: y)[c] * 257) <= 12 * 257)
                #expect(abs(wide[c] / 257 - narrow[c]) <= 1)
            }
        }
    }

    @Test func eightBitSourcesStayRGBA8WhenRGBA16IsAsked() throws {
        let image = try Fixture.decode("rgb.heic", request: DecodeRequest(pixelFormat: .rgba16))
        #expect(image.pixels.format == .rgba8)
    }

    @Test(arguments: [
        ("rgb.heic", ImageInfo(format: "heic", width: 96, height: 64)),
        ("alpha.avif", ImageInfo(format: "avif", width: 96, height: 64, traits: .hasAlpha)),
        ("deep10.heic", ImageInfo(format: "heic", width: 96, height: 64, bitsPerComponent: 10)),
        ("deep12.avif", ImageInfo(format: "avif", width: 96, height: 64, bitsPerComponent: 12)),
        ("rotated.heic", ImageInfo(format: "heic", width: 64, height: 96)),
        ("thumbnail.heic", ImageInfo(format: "heic", width: 256, height: 192)),
    ])
    func probeReadsTheBoxes(name: String, expected: ImageInfo) throws {
        let info = try Fixture.bytes("heif/\(name)").withUnsafeBytes { try coder.probe($0) }
        #expect(info == expected)
    }

    @Test func theFirstOfSeveralTopLevelImagesIsThePrimary() throws {
        let bytes = try Fixture.bytes("heif/multi.heic")
        #expect(try bytes.withUnsafeBytes { try HEIFImageCoder.topLevelImageCount($0) } == 2)
        #expect(try Fixture.bytes("heif/rgb.heic").withUnsafeBytes { try HEIFImageCoder.topLevelImageCount($0) } == 1)
        let image = try Fixture.decode("multi.heic")
        #expect(image.width == 96 && image.height == 64)
        #expect(image.pixels.channels(x: 0, y: 0)[0] < 16)
    }

    @Test func theHostBufferIsFilledStraightThroughItsAllocator() throws {
        let image = try Fixture.decode("rgb.heic")
        #expect(image.pixels.bytesPerRow == 96 * 4)
    }
}
