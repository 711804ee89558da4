import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The real `libWebImageCurl.so`, opened with dlopen through its manifest and used as an
/// ``ImageLoader`` through the C ABI.
@Suite struct CurlLoaderPluginTests {
    let folder: PluginsFolder
    let host: PluginHost

    init() throws {
        folder = try PluginsFolder()
        try folder.addBundled(manifest: "curl.json", library: "libWebImageCurl.so")
        host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
    }

    @Test func theLoaderKindIsOpenedFromTheManifest() throws {
        #expect(host.plugins(of: .loader).map(\.name) == ["curl"])
        let plugin = try host.open("curl")
        #expect(plugin.kinds == [.loader])
        #expect(plugin.kindsWithoutAdapter.isEmpty)
        let loader = try host.adapter(PluginLoader.self, named: "curl")
        #expect(loader.schemes == ["http", "https", "file", "data"])
        #expect(host.verify().isEmpty)
    }

    @Test func theLibraryLoadsAFileAndADataURL() async throws {
        let loader = try host.adapter(PluginLoader.self, named: "curl")
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 3) }
        let file = folder.url.appendingPathComponent("bytes.bin")
        try Data(bytes).write(to: file)
        var request = LoadRequest(url: file.absoluteString)
        request.destinationPolicy.allowFile = true
        let (response, body, _) = try await loader.load(request)
        #expect(response.statusCode == 200)
        #expect(body == bytes)
        let (_, decoded, _) = try await loader.load(LoadRequest(url: "data:,hello"))
        #expect(decoded == Array("hello".utf8))
    }

    @Test func aManifestListingOtherSchemesIsAFault() throws {
        try folder.write(
            "curl.json",
            """
            { "name": "curl", "version": "1.0.0", "abi_version": 1, "library": "libWebImageCurl.so",
              "loader": { "schemes": ["http", "ftp"] } }
            """)
        let strictHost = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
        #expect(throws: PluginFault.self) { try strictHost.open("curl") }
        let fault = strictHost.faults.first
        #expect(fault?.reason == .descriptorMismatch)
        #expect(
            fault?.detail == "the library serves schemes [data, file, http, https], the manifest lists [ftp, http]")
    }
}
