import JPEGCoder
import Testing
import WebImageCore
import WebImageTestSupport

@Suite(.ownThread) struct JPEGDecodeTests {
    let coder = JPEGImageCoder()

    func decode(_ name: String, request: DecodeRequest = DecodeRequest()) throws -> DecodedImage {
        let bytes = try Fixture.bytes("jpeg/\(name).jpg")
        return try bytes.withUnsafeBytes { try coder.decode($0, request: request) }
    }

    /// Our RGBA pixels against djpeg's PPM / PGM output of the same file: exactly equal.
    func expectEqualToDjpeg(_ image: DecodedImage, _ reference: Djpeg.Output) {
        #expect(image.width == reference.width && image.height == reference.height)
        #expect(reference.mismatchedPixels(image.pixels) == 0)
    }

    @Test(arguments: ["baseline", "progressive", "gray"])
    func pixelsEqualDjpeg(name: String) throws {
        let image = try decode(name)
        #expect(image.width == 61 && image.height == 43)
        expectEqualToDjpeg(image, try Djpeg.decode(Fixture.path("jpeg/\(name).jpg")))
    }

    @Test(arguments: ["baseline", "progressive", "gray"])
    func dctScaledThumbnailsEqualDjpegScale(name: String) throws {
        let path = Fixture.path("jpeg/\(name).jpg")
        for (box, eighths, size) in [((8, 6), 1, (8, 6)), ((12, 10), 2, (16, 11)), ((20, 20), 4, (31, 22))] {
            let image = try decode(name, request: DecodeRequest(thumbnailBox: box))
            #expect((image.width, image.height) == size, "box \(box)")
            #expect(image.sourceWidth == 61 && image.sourceHeight == 43)
            expectEqualToDjpeg(image, try Djpeg.decode(path, scaleEighths: eighths))
        }
    }

    @Test func aBoxLargerThanHalfTheImageDecodesFullSize() throws {
        let image = try decode("baseline", request: DecodeRequest(thumbnailBox: (40, 30)))
        #expect(image.width == 61 && image.height == 43)
    }

    @Test func cmykIsConvertedToRGB() throws {
        let cmyk = try decode("cmyk")
        let rgb = try decode("baseline")
        #expect(cmyk.traits.contains(.cmyk))
        var totalDifference = 0
        for y in 0..<43 {
            for x in 0..<61 {
                let a = cmyk.pixels.channels(x: x, y: y)
                let b = rgb.pixels.channels(x: x, y: y)
                #expect(a[3] == 255)
                totalDifference += (0..<3).map { abs(a[$0] - b[$0]) }.reduce(0, +)
            }
        }
        let meanDifference = Double(totalDifference) / Double(61 * 43 * 3)
        #expect(meanDifference < 4, "mean difference \(meanDifference)")
    }

    @Test func probeReadsTheHeader() throws {
        let cases: [(String, ImageInfo.Traits)] = [
            ("baseline", []), ("progressive", [.progressive]), ("gray", [.grayscale]), ("cmyk", [.cmyk]),
        ]
        for (name, traits) in cases {
            let bytes = try Fixture.bytes("jpeg/\(name).jpg")
            let info = try bytes.withUnsafeBytes { try coder.probe($0) }
            #expect(info == ImageInfo(format: "jpeg", width: 61, height: 43, traits: traits), "\(name)")
        }
    }

    @Test(arguments: 1...8)
    func exifOrientationIsReported(orientation: Int) throws {
        let bytes = try Fixture.bytes("jpeg/orientation-\(orientation).jpg")
        let info = try bytes.withUnsafeBytes { try coder.probe($0) }
        #expect(info.orientation.rawValue == UInt32(orientation))
        let image = try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        #expect(image.orientation.rawValue == UInt32(orientation))
        #expect(image.width == 61 && image.height == 43)
    }

    @Test func littleEndianExifIsRead() throws {
        let bytes = try Fixture.bytes("jpeg/orientation-6-le.jpg")
        #expect(try bytes.withUnsafeBytes { try coder.probe($0) }.orientation.rawValue == 6)
    }

    @Test func canDecodeLooksForTheSOIMarker() {
        #expect([UInt8]([0xFF, 0xD8, 0xFF, 0xE0]).withUnsafeBytes { coder.canDecode($0) })
        #expect(![UInt8]([0xFF, 0xD8]).withUnsafeBytes { coder.canDecode($0) })
        #expect(![UInt8]([0x89, 0x50, 0x4E, 0x47]).withUnsafeBytes { coder.canDecode($0) })
    }
}
