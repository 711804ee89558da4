import PNGCoder
import Testing
import WebImageCore
import WebImageTestSupport

@Suite struct PNGThumbnailTests {
    let coder = PNGImageCoder()

    func decode(_ name: String, box: (width: Int, height: Int), limit: Int = DecodeOptions.defaultMaxPixelCount)
        throws -> DecodedImage
    {
        let bytes = try Fixture.bytes("png/\(name).png")
        return try bytes.withUnsafeBytes {
            try coder.decode($0, request: DecodeRequest(thumbnailBox: box, maxPixelCount: limit))
        }
    }

    /// The alpha-weighted mean of the `factor` × `factor` block at output pixel (`bx`, `by`).
    func blockMean(_ name: String, bx: Int, by: Int, factor: Int) -> [Int] {
        var sums = [0, 0, 0, 0]
        var count = 0
        for y in (by * factor)..<min((by + 1) * factor, 7) {
            for x in (bx * factor)..<min((bx + 1) * factor, 13) {
                let pixel = PNGFixturePixels.rgba(name, x: x, y: y)
                for channel in 0..<3 { sums[channel] += pixel[channel] * pixel[3] }
                sums[3] += pixel[3]
                count += 1
            }
        }
        guard sums[3] > 0 else { return [0, 0, 0, 0] }
        return (0..<3).map { (sums[$0] + sums[3] / 2) / sums[3] } + [(sums[3] + count / 2) / count]
    }

    @Test(arguments: ["rgba8", "rgba8-adam7", "palette8", "palette8-adam7", "gray16", "graya8"])
    func rowStreamingAveragesBlocks(name: String) throws {
        let image = try decode(name, box: (4, 2))
        #expect(image.width == 5 && image.height == 3)
        #expect(image.sourceWidth == 13 && image.sourceHeight == 7)
        for by in 0..<3 {
            for bx in 0..<5 {
                #expect(
                    image.pixels.channels(x: bx, y: by) == blockMean(name, bx: bx, by: by, factor: 3),
                    "\(name) (\(bx), \(by))")
            }
        }
    }

    @Test func aBoxAsLargeAsTheImageDecodesFullSize() throws {
        let image = try decode("rgba8", box: (13, 7))
        #expect(image.width == 13 && image.height == 7)
    }

    @Test func a120MegapixelImageIsTooLargeForAFullDecode() throws {
        let bytes = try Fixture.bytes("png/large-120mp.png")
        let error = try #require(throws: ImageCodingError.self) {
            try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        }
        #expect(error.kind == .tooLarge)
        #expect(error.message == "image too large: 12000×10000 pixels exceed the limit of 100000000 pixels")
    }

    @Test func a120MegapixelImageThumbnailsWithinASmallLimit() throws {
        let image = try decode("large-120mp", box: (240, 200), limit: 100_000)
        #expect(image.width == 240 && image.height == 200)
        #expect(image.pixels.channels(x: 0, y: 0) == [0, 0, 0, 255])
        #expect(image.pixels.channels(x: 100, y: 60) == [255, 255, 255, 255])
        #expect(image.pixels.channels(x: 119, y: 79) == [255, 255, 255, 255])
        #expect(image.pixels.channels(x: 120, y: 80) == [0, 0, 0, 255])
    }
}
