import CWebImagePlugin
import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The real PNG and JPEG `.so` files, opened with dlopen and used through the C ABI.
@Suite struct BundledPluginsTests {
    let folder: PluginsFolder
    let host: PluginHost

    init() throws {
        folder = try PluginsFolder()
        try folder.addPNGAndJPEG()
        host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
    }

    @Test func bothPluginsAreFoundFromTheirManifests() {
        #expect(host.plugins.map(\.name).sorted() == ["jpeg", "png"])
        #expect(host.faults.isEmpty)
    }

    @Test("an app's search path finds the plugins SwiftPM built beside its executable, with their manifests, trusted")
    func pluginsOfTheAppsOwnBuild() throws {
        let build = try BuildProducts.requiredDirectory.standardizedFileURL
        let app = PluginHost(
            searchPath: .application(environment: [:], executablePath: build.appendingPathComponent("MyApp").path))
        let manifests = build.appendingPathComponent("WebImage_WebImagePluginManifests.resources").path
        #expect(app.searchPath.directories.last == manifests)
        let bundled = try BuildProducts.bundledPlugins
        #expect(app.plugins.map(\.name) == bundled.map(\.name))
        #expect(app.plugins.map(\.manifestPath) == bundled.map { manifests + "/" + $0.manifest })
        #expect(app.plugins.map(\.libraryPath) == bundled.map { build.appendingPathComponent($0.library).path })
        #expect(app.plugins.allSatisfy { $0.trust == .trusted })
        #expect(app.faults.isEmpty && app.warnings.isEmpty && app.refusals.isEmpty)
        #expect(!app.isIsolated("png"))
        #expect(try app.makeCodersManager().decode(try Fixture.bytes("png/rgba8.png")).width == 13)
    }

    @Test func verifyLoadsBothWithoutFaults() {
        #expect(host.verify().isEmpty)
    }

    @Test func theDescriptorMatchesTheManifest() throws {
        let still: ImageFormat.Capabilities = [.decode, .encode, .incrementalDecode, .scaleWhileDecoding]
        let cases: [(String, String, String, ImageFormat.Capabilities)] = [
            ("png", "png", "image/png", still.union([.decodeAnimation, .encodeAnimation])),
            ("jpeg", "jpeg", "image/jpeg", still),
        ]
        for (name, format, mime, capabilities) in cases {
            let plugin = try host.open(name)
            #expect(plugin.abiVersion == WEBIMAGE_PLUGIN_ABI_VERSION)
            #expect(String(cString: plugin.descriptor.pointee.name) == name)
            #expect(String(cString: plugin.descriptor.pointee.version) == "1.0.0")
            #expect(plugin.kinds == [.coder])
            let coder = try #require(plugin.coder)
            #expect(coder.formats.map(\.name) == [format])
            #expect(coder.formats.map(\.mimeType) == [mime])
            #expect(coder.formats[0].capabilities == capabilities)
        }
    }

    @Test func pngDecodesThroughThePlugin() throws {
        let manager = host.makeCodersManager()
        let image = try manager.decode(try Fixture.bytes("png/palette8.png"))
        #expect(image.format == "png")
        #expect(image.width == 13 && image.height == 7)
        #expect(image.pixels.channels(x: 0, y: 0) == [0, 255, 0, 0])
        #expect(image.pixels.channels(x: 1, y: 0) == [31, 224, 217, 255])
        let sixteen = try manager.decode(
            try Fixture.bytes("png/rgba16.png"), options: DecodeOptions(pixelFormat: .rgba16))
        #expect(sixteen.pixels.format == .rgba16)
        #expect(sixteen.pixels.channels(x: 1, y: 1) == [48, 115, 182, 249])
    }

    @Test func jpegThumbnailsAndOrientationThroughThePlugin() throws {
        let manager = host.makeCodersManager()
        let image = try manager.decode(
            try Fixture.bytes("jpeg/orientation-6.jpg"),
            options: DecodeOptions(thumbnail: ThumbnailSize(width: 10, height: 10)))
        #expect(image.format == "jpeg")
        #expect(image.width == 7 && image.height == 10)
        #expect(image.orientation == .up)
    }

    @Test func errorsCrossTheBoundaryWithTheirKindAndMessage() throws {
        let manager = host.makeCodersManager()
        let truncated = try #require(throws: ImageCodingError.self) {
            try manager.decode(try Fixture.bytes("jpeg/bad-truncated-progressive.jpg"))
        }
        #expect(
            truncated == ImageCodingError(.truncatedData, "truncated JPEG: the file ends before the image is complete"))
        let tooLarge = try #require(throws: ImageCodingError.self) {
            try manager.decode(try Fixture.bytes("png/large-120mp.png"))
        }
        #expect(tooLarge == ImageCodingError.tooLarge(width: 12000, height: 10000, limit: 100_000_000))
        let unknown = try #require(throws: ImageCodingError.self) { try manager.decode(Array("hello".utf8)) }
        #expect(unknown.kind == .unsupportedFormat)
    }

    @Test func incrementalDecodingThroughThePlugin() throws {
        let bytes = try Fixture.bytes("jpeg/progressive.jpg")
        let coder = try #require(try host.open("jpeg").coder)
        let decoder = try coder.makeIncrementalDecoder(request: DecodeRequest())
        try bytes[0..<(bytes.count / 2)].withUnsafeBytes { try decoder.append($0, isFinal: false) }
        #expect(try decoder.currentImage()?.isPartial == true)
        try bytes[(bytes.count / 2)...].withUnsafeBytes { try decoder.append($0, isFinal: true) }
        let complete = try #require(try decoder.currentImage())
        #expect(!complete.isPartial)
        let full = try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
        #expect(complete.pixels.packedBytes() == full.pixels.packedBytes())
    }

    @Test func encodingThroughThePluginRoundTrips() throws {
        let manager = host.makeCodersManager()
        let original = try manager.decode(try Fixture.bytes("png/rgba8.png"))
        let png = try manager.encode(original.pixels, options: EncodeOptions(format: "png")).bytes
        #expect(try manager.decode(png).pixels.packedBytes() == original.pixels.packedBytes())
        let jpeg = try manager.encode(original.pixels, options: EncodeOptions(format: "jpg", quality: 0.8)).bytes
        #expect(try manager.probe(jpeg) == ImageInfo(format: "jpeg", width: 13, height: 7))
    }
}
