import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The real HEIF `.so` (two formats, HEIC and AVIF) through the host.
@Suite struct HEIFPluginTests {
    let folder: PluginsFolder
    let manager: CodersManager

    init() throws {
        folder = try PluginsFolder()
        try folder.addBundled(manifest: "heif.json", library: "libWebImageHEIF.so")
        try folder.addPNGAndJPEG()
        manager = PluginHost(searchPath: PluginSearchPath(directories: [folder.path])).makeCodersManager()
    }

    @Test(arguments: [("heif/rgb.heic", "heic"), ("heif/rgb.avif", "avif"), ("heif/alpha.avif", "avif")])
    func bothFormatsDecodeThroughThePlugin(path: String, format: String) throws {
        let bytes = try Fixture.bytes(path)
        let info = try manager.probe(bytes)
        #expect(info.format == format)
        let image = try manager.decode(bytes)
        #expect(image.format == format)
        #expect((image.width, image.height) == (info.width, info.height))
    }

    @Test func lossyHEICAndAVIFEncodeAndDecodeBack() throws {
        let still = try manager.decode(try Fixture.bytes("png/rgba8.png"))
        for format in ["heic", "avif"] {
            let encoded = try manager.encode(still.pixels, options: EncodeOptions(format: format, quality: 0.8)).bytes
            let info = try manager.probe(encoded)
            #expect(info.format == format)
            #expect((info.width, info.height) == (13, 7))
        }
    }

    @Test func aLyingIspeIsATypedError() throws {
        let error = try #require(throws: ImageCodingError.self) {
            try manager.decode(try Fixture.bytes("heif/bad-ispe-bigger.heic"))
        }
        #expect(error.kind == .corruptData)
    }
}
