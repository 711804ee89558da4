import Testing
import WebImageCore
import WebImageTestSupport

/// `Examples/ThirdPartyCoder`, a PNM coder in plain C, built with one `cc` line and
/// used through the plugin host like any bundled plugin.
@Suite(.ownThread) struct ThirdPartyCoderTests {
    let folder: PluginsFolder
    let host: PluginHost

    init() throws {
        folder = try PluginsFolder()
        try folder.addThirdPartyExample()
        try folder.addPNGAndJPEG()
        host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
    }

    @Test func theExampleLoadsWithoutFaults() {
        #expect(host.verify().isEmpty)
        #expect(host.plugins.map(\.name).sorted() == ["jpeg", "png", "pnm"])
    }

    @Test func aPPMDecodesThroughTheExample() throws {
        let header = Array("P6\n3 2\n255\n".utf8)
        let samples: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30, 40, 50, 60, 70, 80, 90]
        let image = try host.makeCodersManager().decode(header + samples)
        #expect(image.format == "pnm")
        #expect(image.width == 3 && image.height == 2)
        #expect(
            image.pixels.packedBytes() == [
                255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 255, 40, 50, 60, 255, 70, 80, 90, 255,
            ])
    }

    @Test func aPGMConvertsToPNGThroughTwoPlugins() throws {
        let manager = host.makeCodersManager()
        let image = try manager.decode(Array("P5 2 2 255 ".utf8) + [0, 85, 170, 255])
        let png = try manager.encode(image.pixels, options: EncodeOptions(format: "png")).bytes
        let back = try manager.decode(png)
        #expect(back.format == "png")
        #expect(back.pixels.packedBytes() == [0, 0, 0, 255, 85, 85, 85, 255, 170, 170, 170, 255, 255, 255, 255, 255])
    }

    @Test func aTruncatedPPMIsATypedError() throws {
        let error = try #require(throws: ImageCodingError.self) {
            try host.makeCodersManager().decode(Array("P6\n3 2\n255\n".utf8) + [1, 2, 3])
        }
        #expect(error.kind == .truncatedData)
    }
}
