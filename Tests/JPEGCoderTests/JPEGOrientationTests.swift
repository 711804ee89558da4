import JPEGCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// Orientation applied by the host (``CodersManager``) to what the JPEG coder reports.
@Suite struct JPEGOrientationTests {
    let manager: CodersManager = {
        let manager = CodersManager()
        manager.register(JPEGImageCoder(), signatures: [MagicSignature(pattern: "ffd8ff")!])
        return manager
    }()

    @Test(arguments: 1...8)
    func theManagerTurnsThePixelsUpright(orientation: Int) throws {
        let upright = try manager.decode(try Fixture.bytes("jpeg/baseline.jpg"))
        let oriented = try manager.decode(try Fixture.bytes("jpeg/orientation-\(orientation).jpg"))
        #expect(oriented.orientation == .up)
        let swaps = orientation >= 5
        #expect((oriented.width, oriented.height) == (swaps ? (43, 61) : (61, 43)))
        let expected = try OrientationTransform.apply(
            ImageOrientation(exifValue: UInt32(orientation)), to: upright.pixels)
        #expect(oriented.pixels.packedBytes() == expected.packedBytes())
    }

    @Test func orientationCanBeLeftAlone() throws {
        let image = try manager.decode(
            try Fixture.bytes("jpeg/orientation-6.jpg"), options: DecodeOptions(appliesOrientation: false))
        #expect(image.orientation == .right)
        #expect(image.width == 61 && image.height == 43)
    }

    @Test func thumbnailsFitTheBoxAfterOrientation() throws {
        let image = try manager.decode(
            try Fixture.bytes("jpeg/orientation-6.jpg"),
            options: DecodeOptions(thumbnail: ThumbnailSize(width: 20, height: 30)))
        #expect(image.width == 20 && image.height == 28)
        let exact = try manager.decode(
            try Fixture.bytes("jpeg/orientation-6.jpg"),
            options: DecodeOptions(thumbnail: ThumbnailSize(width: 20, height: 20, preservesAspectRatio: false)))
        #expect(exact.width == 20 && exact.height == 20)
    }
}
