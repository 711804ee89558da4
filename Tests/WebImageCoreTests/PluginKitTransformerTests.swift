import CWebImagePlugin
import Foundation
import Testing
import WebImageTestSupport

@testable import WebImageCore
@testable import WebImagePluginKit

/// A Swift plugin exporting a coder and transformers from one descriptor, used through the
/// host's adapters in one process: the descriptor builder composes kinds.
@Suite struct PluginKitTransformerTests {
    /// Inverts the colour channels; `strength` (percent, default 100) says how far.
    struct InvertTransformer: ImageTransformer {
        let strength: Int
        var transformerKey: String { "Invert(\(strength))" }

        func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
            guard let output = try? PixelBuffer(width: image.width, height: image.height, format: .rgba8) else {
                throw ImageTransformError(.outOfMemory, "no memory")
            }
            for y in 0..<image.height {
                let source = image.row(y).assumingMemoryBound(to: UInt8.self)
                let destination = output.row(y).assumingMemoryBound(to: UInt8.self)
                for index in 0..<(image.width * 4) {
                    let value = Int(source[index])
                    destination[index] =
                        index % 4 == 3 ? source[index] : UInt8(value + ((255 - 2 * value) * strength + 50) / 100)
                }
            }
            return output
        }
    }

    static let descriptorAddress: UInt = UInt(
        bitPattern: PluginDescriptorBuilder(name: "wiraw", version: "3.2.1")
            .coder(TestRawCoder())
            .transformers(["invert"]) { name, parameters throws(ImageTransformError) in
                var strength = 100
                for (key, value) in parameters {
                    guard key == "strength", let number = Int(value), (0...100).contains(number) else {
                        throw ImageTransformError(
                            .invalidParameter, "invert takes strength=0...100, not \(key)=\(value)")
                    }
                    strength = number
                }
                return InvertTransformer(strength: strength)
            }
            .build(host: HostServices.host))

    func opened() throws -> OpenedPlugin {
        let folder = try TemporaryDirectory()
        let path = try folder.write(
            "wiraw.json",
            """
            { "name": "wiraw", "version": "3.2.1", "abi_version": 1, "library": "libwiraw.so",
              "coder": { "formats": [{ "name": "wiraw", "mime_types": ["image/x-wiraw"], "extensions": ["wiraw"],
                                       "signatures": [], "capabilities": ["decode"] }] },
              "transformer": { "names": ["invert"] } }
            """)
        let plugin = DiscoveredPlugin(
            manifest: try PluginManifest.load(from: path), manifestPath: path, libraryPath: "libwiraw.so")
        let descriptor = UnsafePointer<webimage_plugin_descriptor>(bitPattern: Self.descriptorAddress)!
        return try PluginLibrary.check(descriptor, against: plugin, adapters: PluginKindAdapters.standard) {
            reason, detail in PluginFault(reason, file: path, plugin: "wiraw", detail: detail)
        }
    }

    @Test func oneDescriptorDeclaresBothKinds() throws {
        let opened = try opened()
        #expect(opened.descriptor.pointee.kinds == WEBIMAGE_KIND_CODER | WEBIMAGE_KIND_TRANSFORMER)
        #expect(opened.kinds == [.coder, .transformer])
        #expect(opened.coder?.formats == [TestRawCoder.format])
        let factory = try #require(opened.adapter(PluginTransformerFactory.self))
        #expect(factory.names == ["invert"])
        #expect(factory.isThreadSafe)
        #expect(factory.acceptsRGBA16)
    }

    @Test func theExportedTransformerRunsThroughTheABI() throws {
        let factory = try #require(try opened().adapter(PluginTransformerFactory.self))
        let transformer = try factory.makeTransformer(name: "invert", parameters: [(key: "strength", value: "50")])
        #expect(transformer.transformerKey == "wiraw.Invert(50)")
        let image = try TestPixels.rgba8(width: 2, height: 1) { x, _ in x == 0 ? [0, 100, 255, 255] : [10, 20, 30, 0] }
        let output = try transformer.transform(image)
        #expect(output.format == .rgba8)
        #expect(output.packedBytes() == [128, 128, 128, 255, 128, 128, 128, 0])
    }

    @Test func errorsKeepTheirKindAcrossTheABI() throws {
        let factory = try #require(try opened().adapter(PluginTransformerFactory.self))
        let bad = try #require(throws: ImageTransformError.self) {
            try factory.makeTransformer(name: "invert", parameters: [(key: "strength", value: "300")])
        }
        #expect(bad.kind == .invalidParameter)
        #expect(bad.message == "invert takes strength=0...100, not strength=300")
    }
}
