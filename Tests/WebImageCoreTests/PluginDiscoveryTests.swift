import Testing
import WebImageCore
import WebImageTestSupport

@Suite struct PluginDiscoveryTests {
    @Test func readsManifestsInSearchOrderWithoutOpeningLibraries() throws {
        let root = try TemporaryDirectory()
        let first = try root.folder("first")
        let second = try root.folder("second")
        try root.write("first/b.json", manifestJSON(name: "b"))
        try root.write("first/a.json", manifestJSON(name: "a", library: "/abs/liba.so"))
        try root.write("second/c.json", manifestJSON(name: "c"))
        let result = PluginDiscovery.discover(in: PluginSearchPath(directories: [first, second]))
        #expect(result.plugins.map(\.name) == ["a", "b", "c"])
        #expect(result.plugins[0].libraryPath == "/abs/liba.so")
        #expect(result.plugins[1].libraryPath == first + "/libb.so")
        #expect(result.plugins[2].manifestPath == second + "/c.json")
        #expect(result.faults.isEmpty)
    }

    @Test func loadingAnUnknownNameIsANotFoundFault() throws {
        let root = try TemporaryDirectory()
        let folder = try root.folder("plugins")
        let host = PluginHost(searchPath: PluginSearchPath(directories: [folder]))
        let fault = try #require(throws: PluginFault.self) { try host.open("nothing") }
        #expect(fault.reason == .notFound)
        #expect(fault.detail == "no manifest names it in the search path \(folder)")
        #expect(host.faults.isEmpty)
    }

    @Test func laterPluginWithTheSameNameIsADuplicate() throws {
        let root = try TemporaryDirectory()
        let first = try root.folder("first")
        let second = try root.folder("second")
        try root.write("first/png.json", manifestJSON(name: "png"))
        let duplicate = try root.write("second/png.json", manifestJSON(name: "png", version: "9.9"))
        let result = PluginDiscovery.discover(in: PluginSearchPath(directories: [first, second]))
        #expect(result.plugins.map(\.manifest.version) == ["1.0.0"])
        #expect(result.faults.count == 1)
        #expect(result.faults.first?.reason == .duplicateName)
        #expect(result.faults.first?.file == duplicate)
        #expect(result.faults.first?.detail.contains(first + "/png.json") == true)
    }

    @Test func onlyALibraryExportingTheEntrySymbolWithoutManifestIsAWarning() throws {
        let root = try TemporaryDirectory()
        let orphan = try root.write("libstray.so", "\u{7F}ELF...webimage_plugin_entry\u{0}...")
        try root.write("libhelper.so.1", "\u{7F}ELF...a helper library of a plugin...")
        let result = PluginDiscovery.discover(in: PluginSearchPath(directories: [root.path]))
        #expect(result.plugins.isEmpty)
        #expect(result.faults.isEmpty)
        #expect(
            result.warnings.map(\.description) == [
                "\(orphan): a plugin library that no manifest in \(root.path) names; it is never opened "
                    + "(write a manifest beside it, see docs/writing-a-plugin.md)"
            ])
    }

    @Test func theLibraryOfABrokenManifestIsNotReportedAgain() throws {
        let root = try TemporaryDirectory()
        try root.write("libnamed.so", "webimage_plugin_entry\u{0}")
        try root.write("named.json", manifestJSON(name: "named", signature: "zz"))
        try root.write("libunnamed.so", "webimage_plugin_entry\u{0}")
        try root.write("unnamed.json", "{ not json")
        let result = PluginDiscovery.discover(in: PluginSearchPath(directories: [root.path]))
        #expect(result.faults.map(\.file) == [root.path + "/named.json", root.path + "/unnamed.json"])
        #expect(result.warnings.isEmpty)
    }

    @Test func brokenManifestIsSkippedAndOthersStillFound() throws {
        let root = try TemporaryDirectory()
        try root.write("good.json", manifestJSON(name: "good"))
        try root.write("bad.json", "{")
        let result = PluginDiscovery.discover(in: PluginSearchPath(directories: [root.path, "/nonexistent/folder"]))
        #expect(result.plugins.map(\.name) == ["good"])
        #expect(result.faults.map(\.reason) == [.invalidManifest])
    }

    @Test func pluginsInTrustedFoldersAreTrusted() throws {
        let root = try TemporaryDirectory()
        let extra = try root.folder("extra")
        let bundled = try root.folder("bundled")
        try root.write("extra/pnm.json", manifestJSON(name: "pnm", signature: "5036"))
        try root.write("bundled/png.json", manifestJSON(name: "png"))
        let result = PluginDiscovery.discover(
            in: PluginSearchPath(directories: [extra, bundled], trustedDirectories: [bundled]))
        #expect(result.plugins.map(\.name) == ["pnm", "png"])
        #expect(result.plugins.map(\.trust) == [.untrusted, .trusted])
        #expect(result.faults.isEmpty)
    }
}
