import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The real `libWebImageDisk.so`, opened with dlopen and used through the C ABI.
@Suite struct DiskCachePluginTests {
    let folder: PluginsFolder
    let host: PluginHost

    init() throws {
        folder = try PluginsFolder()
        try folder.addBundled(manifest: "disk.json", library: "libWebImageDisk.so")
        host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
    }

    @Test func theManifestDeclaresADiskCache() throws {
        #expect(host.faults.isEmpty)
        #expect(host.plugins(of: .diskCache).map(\.name) == ["disk"])
        let plugin = try host.open("disk")
        #expect(plugin.kinds == [.diskCache])
        #expect(plugin.kindsWithoutAdapter.isEmpty)
    }

    @Test func entriesRoundTripThroughTheLoadedPlugin() throws {
        let backend = try host.adapter(PluginDiskCacheBackend.self, named: "disk")
        let directory = try PluginsFolder()
        let cache = try backend.open(["directory": directory.path, "namespace": "images", "max-count": "2"])
        try cache.store(Data([1, 2, 3]), extendedData: Data("etag".utf8), forKey: "http://a/b.png")
        #expect(
            try cache.entry(forKey: "http://a/b.png")
                == DiskCacheEntry(data: Data([1, 2, 3]), extendedData: Data("etag".utf8)))
        #expect(cache.path(forKey: "http://a/b.png")?.hasPrefix(directory.path + "/images/") == true)
        #expect(cache.path(forKey: "http://a/b.png")?.hasSuffix(".png") == true)
        #expect(try cache.totals() == CacheTotals(count: 1, bytes: 3 + 32, countLimit: 2, ageLimitSeconds: 604_800))
    }

    @Test func aBadOptionIsATypedErrorWithThePluginsMessage() throws {
        let backend = try host.adapter(PluginDiskCacheBackend.self, named: "disk")
        let error = try #require(throws: CacheError.self) { try backend.open(["max-age": "a week"]) }
        #expect(error == CacheError(.invalidArgument, "max-age: 'a week' is not a whole number (0 means no limit)"))
    }
}
