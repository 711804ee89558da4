import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The real `libWebImageMemory.so`, opened with dlopen and used through the C ABI.
@Suite struct MemoryCachePluginTests {
    let folder: PluginsFolder
    let host: PluginHost

    init() throws {
        folder = try PluginsFolder()
        try folder.addBundled(manifest: "memory.json", library: "libWebImageMemory.so")
        host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
    }

    @Test func valuesRoundTripThroughTheLoadedPlugin() throws {
        #expect(host.faults.isEmpty)
        #expect(host.plugins(of: .memoryCache).map(\.name) == ["memory"])
        #expect(try host.open("memory").kinds == [.memoryCache])
        let cache = try host.adapter(PluginMemoryCacheBackend.self, named: "memory").make(["max-cost": "100"])
        try cache.setValue("pixels", forKey: "a", cost: 60)
        try cache.setValue("more pixels", forKey: "b", cost: 60)
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.value(forKey: "b") as? String == "more pixels")
        #expect(cache.totals == CacheTotals(count: 1, bytes: 60, byteLimit: 100))
    }
}
