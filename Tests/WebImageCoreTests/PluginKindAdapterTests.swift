import CWebImagePlugin
import Foundation
import Testing
import WebImageTestSupport

@testable import WebImageCore

/// The host knows no kind: each declared kind is wrapped by the adapter given for it, and a
/// kind is added by adding an adapter (here a stand-in for the transformer kind's, given to
/// the host in place of the standard list).
@Suite struct PluginKindAdapterTests {
    /// A stand-in for the host's transformer adapter: remembers its table and names.
    struct TransformerTableAdapter: PluginKindAdapter {
        static var kind: PluginKind { .transformer }
        let tableAddress: UInt
        let names: [String]

        init(descriptor: webimage_plugin_descriptor, plugin: DiscoveredPlugin) throws(PluginFault) {
            guard let table = descriptor.transformer else {
                throw PluginFault(
                    .descriptorMismatch, file: plugin.libraryPath, plugin: plugin.name,
                    detail: "the transformer table is NULL")
            }
            tableAddress = UInt(bitPattern: table)
            names = plugin.manifest.transformer?.names ?? []
        }
    }

    /// Zeroed memory stands in for a transformer table: only the adapter above reads its address.
    static let transformerTableAddress: UInt = {
        let size = MemoryLayout<webimage_transformer>.size
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        return UInt(bitPattern: memory)
    }()
    var transformerTable: UnsafePointer<webimage_transformer> {
        UnsafePointer(bitPattern: Self.transformerTableAddress)!
    }

    func plugin() throws -> DiscoveredPlugin {
        let folder = try TemporaryDirectory()
        let path = try folder.write(
            "wiraw.json",
            """
            { "name": "wiraw", "version": "3.2.1", "abi_version": 1, "library": "libwiraw.so",
              "coder": { "formats": [{ "name": "wiraw", "mime_types": ["image/x-wiraw"], "extensions": ["wiraw"],
                                       "signatures": [], "capabilities": ["decode"] }] },
              "transformer": { "names": ["invert"] } }
            """)
        return DiscoveredPlugin(
            manifest: try PluginManifest.load(from: path), manifestPath: path, libraryPath: "libwiraw.so")
    }

    /// The plugin kit's `wiraw` coder table in a descriptor that also declares a transformer.
    func descriptor(transformer: UnsafePointer<webimage_transformer>?) -> UnsafePointer<webimage_plugin_descriptor> {
        var descriptor = PluginKitRoundTripTests.descriptor.pointee
        descriptor.kinds = WEBIMAGE_KIND_CODER | WEBIMAGE_KIND_TRANSFORMER
        descriptor.transformer = transformer
        let pointer = UnsafeMutablePointer<webimage_plugin_descriptor>.allocate(capacity: 1)
        pointer.initialize(to: descriptor)
        return UnsafePointer(pointer)
    }

    func open(
        _ descriptor: UnsafePointer<webimage_plugin_descriptor>, adapters: [any PluginKindAdapter.Type]
    ) throws(PluginFault) -> OpenedPlugin {
        let plugin = try! plugin()
        return try PluginLibrary.check(descriptor, against: plugin, adapters: adapters) { reason, detail in
            PluginFault(reason, file: plugin.libraryPath, plugin: plugin.name, detail: detail)
        }
    }

    @Test func aKindWithoutAnAdapterIsListedAndTheOthersWork() throws {
        let opened = try open(descriptor(transformer: transformerTable), adapters: [PluginCoder.self])
        #expect(opened.kinds == [.coder, .transformer])
        #expect(opened.kindsWithoutAdapter == [.transformer])
        #expect(opened.adapter(TransformerTableAdapter.self) == nil)
        #expect(opened.coder?.formats == [TestRawCoder.format])
    }

    @Test func anAddedAdapterWrapsItsKind() throws {
        let opened = try open(
            descriptor(transformer: transformerTable),
            adapters: [PluginCoder.self, TransformerTableAdapter.self])
        let transformer = try #require(opened.adapter(TransformerTableAdapter.self))
        #expect(transformer.tableAddress == Self.transformerTableAddress)
        #expect(transformer.names == ["invert"])
        #expect(opened.kindsWithoutAdapter.isEmpty)
        #expect(opened.coder != nil)
    }

    @Test func anAdaptersFaultFailsTheOpening() throws {
        let fault = try #require(throws: PluginFault.self) {
            try open(
                descriptor(transformer: nil), adapters: [PluginCoder.self, TransformerTableAdapter.self])
        }
        #expect(fault.reason == .descriptorMismatch)
        #expect(fault.detail == "the transformer table is NULL")
    }
}
