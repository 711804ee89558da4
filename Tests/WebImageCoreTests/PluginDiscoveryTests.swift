import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

@Suite(.ownThread) struct PluginDiscoveryTests {
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
        let folder = try PluginsFolder()
        try PluginsFolder.place(
            try BuildProducts.library("libWebImagePNG.so"), at: folder.url.appendingPathComponent("libstray.so"))
        // A helper library holding the entry symbol's name as data, without exporting the symbol.
        let sources = try TemporaryDirectory()
        let helper = try sources.write(
            "helper.c", "const char *webimage_helper_name(void) { return \"webimage_plugin_entry\"; }\n")
        try folder.compile([URL(fileURLWithPath: helper)], into: "libhelper.so.1")
        try folder.write("notes.so", "webimage_plugin_entry\u{0} in a text file")
        let result = PluginDiscovery.discover(in: PluginSearchPath(directories: [folder.path]))
        #expect(result.plugins.isEmpty)
        #expect(result.faults.isEmpty)
        #expect(
            result.warnings.map(\.description) == [
                "\(folder.file("libstray.so")): a plugin library that no manifest in \(folder.path) names; it is "
                    + "never opened (write a manifest beside it, see docs/writing-a-plugin.md)"
            ])
    }

    @Test func truncatedOrCorruptLibrariesAreReadWithoutACrashAndNotReported() throws {
        let folder = try PluginsFolder()
        let library = try [UInt8](Data(contentsOf: BuildProducts.library("libWebImagePNG.so")))
        for length in [0, 4, 63, 64, 65, 4096, library.count / 2] {
            try Data(library.prefix(length)).write(to: folder.url.appendingPathComponent("libcut\(length).so"))
        }
        // Section headers at the very end of the file, and a section count that overruns it.
        var farSections = library
        for index in 0x28..<0x30 { farSections[index] = 0xFF }
        try Data(farSections).write(to: folder.url.appendingPathComponent("libfar.so"))
        var manySections = library
        manySections[0x3C] = 0xFF
        manySections[0x3D] = 0xFF
        try Data(manySections).write(to: folder.url.appendingPathComponent("libmany.so"))
        let result = PluginDiscovery.discover(in: PluginSearchPath(directories: [folder.path]))
        #expect(result.faults.isEmpty)
        #expect(result.warnings.map(\.file) == [folder.file("libmany.so")])
    }

    @Test func theLibraryOfABrokenManifestIsNotReportedAgain() throws {
        let named = try PluginsFolder()
        try PluginsFolder.place(
            try BuildProducts.library("libWebImagePNG.so"), at: named.url.appendingPathComponent("libnamed.so"))
        try named.write("named.json", manifestJSON(name: "named", signature: "zz"))
        // A manifest whose library cannot be read may name any library of its folder.
        let unreadable = try PluginsFolder()
        try PluginsFolder.place(
            try BuildProducts.library("libWebImagePNG.so"), at: unreadable.url.appendingPathComponent("libother.so"))
        try unreadable.write("unnamed.json", "{ not json")
        let result = PluginDiscovery.discover(in: PluginSearchPath(directories: [named.path, unreadable.path]))
        #expect(result.faults.map(\.file) == [named.file("named.json"), unreadable.file("unnamed.json")])
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
