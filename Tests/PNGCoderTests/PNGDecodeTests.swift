import PNGCoder
import Testing
import WebImageCore
import WebImageTestSupport

@Suite struct PNGDecodeTests {
    let coder = PNGImageCoder()

    func decode(_ name: String, request: DecodeRequest = DecodeRequest()) throws -> DecodedImage {
        let bytes = try Fixture.bytes("png/\(name).png")
        return try bytes.withUnsafeBytes { try coder.decode($0, request: request) }
    }

    @Test(arguments: PNGFixturePixels.names)
    func everyPixelMatchesLibpngExpansion(name: String) throws {
        let image = try decode(name)
        #expect(image.width == 13 && image.height == 7)
        #expect(image.pixels.format == .rgba8)
        for y in 0..<7 {
            for x in 0..<13 {
                let expected = PNGFixturePixels.rgba(name, x: x, y: y)
                #expect(image.pixels.channels(x: x, y: y) == expected, "\(name) at (\(x), \(y))")
            }
        }
    }

    @Test(arguments: ["gray16", "gray16-adam7", "graya16", "rgb16", "rgba16"])
    func sixteenBitSourcesStaySixteenBitWhenAsked(name: String) throws {
        let image = try decode(name, request: DecodeRequest(pixelFormat: .rgba16))
        #expect(image.pixels.format == .rgba16)
        for y in 0..<7 {
            for x in 0..<13 {
                #expect(image.pixels.channels(x: x, y: y) == PNGFixturePixels.rgba(name, x: x, y: y, sixteen: true))
            }
        }
    }

    @Test func eightBitSourcesStayEightBitWhenSixteenIsAsked() throws {
        let image = try decode("palette8", request: DecodeRequest(pixelFormat: .rgba16))
        #expect(image.pixels.format == .rgba8)
    }

    @Test func probeReadsTheHeader() throws {
        let cases: [(String, Int, ImageInfo.Traits)] = [
            ("gray4", 4, [.grayscale]), ("graya16", 16, [.grayscale, .hasAlpha]), ("rgb8-trns", 8, [.hasAlpha]),
            ("rgba8-adam7", 8, [.hasAlpha, .interlaced]), ("palette2", 2, [.indexed, .hasAlpha]), ("rgb16", 16, []),
        ]
        for (name, depth, traits) in cases {
            let bytes = try Fixture.bytes("png/\(name).png")
            let info = try bytes.withUnsafeBytes { try coder.probe($0) }
            #expect(
                info == ImageInfo(format: "png", width: 13, height: 7, bitsPerComponent: depth, traits: traits),
                "\(name)")
        }
    }

    @Test func canDecodeNeedsTheWholeSignature() throws {
        let bytes = try Fixture.bytes("png/rgba8.png")
        #expect(bytes.withUnsafeBytes { coder.canDecode($0) })
        #expect(!Array(bytes.prefix(7)).withUnsafeBytes { coder.canDecode($0) })
        #expect(!Array("GIF89a".utf8).withUnsafeBytes { coder.canDecode($0) })
    }
}
