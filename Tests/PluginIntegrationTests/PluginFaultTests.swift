import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// Each way a plugin can be broken, with real shared objects compiled from
/// `Fixtures/BrokenPlugins`: the fault is reported with its reason and file, the plugin is
/// skipped, and everything else keeps working.
@Suite(.ownThread) struct PluginFaultTests {
    /// Loads every plugin in `folder` and returns the one fault expected.
    func onlyFault(in folder: PluginsFolder) throws -> PluginFault {
        let host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
        let faults = host.verify()
        #expect(faults.count == 1, "\(faults)")
        return try #require(faults.first)
    }

    func folder(withFixture stem: String, manifestName: String? = nil, version: String = "1.0.0") throws
        -> PluginsFolder
    {
        let folder = try PluginsFolder()
        try folder.compileFixture(stem)
        try folder.writeFixtureManifest(name: manifestName ?? stem, library: "lib\(stem).so", version: version)
        return folder
    }

    @Test func aWorkingFixtureLoadsAndDecodes() throws {
        let folder = try folder(withFixture: "working")
        let host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
        #expect(host.verify().isEmpty)
        let image = try host.makeCodersManager().decode(Array("FIXT".utf8))
        #expect(image.pixels.packedBytes() == [255, 0, 0, 255, 0, 0, 255, 128])
    }

    @Test func wrongABIVersionInTheDescriptor() throws {
        let fault = try onlyFault(in: try folder(withFixture: "wrong_abi"))
        #expect(fault.reason == .unsupportedABIVersion)
        #expect(fault.file.hasSuffix("libwrong_abi.so"))
        #expect(fault.detail.contains("99"))
    }

    @Test func wrongABIVersionInTheManifest() throws {
        let folder = try PluginsFolder()
        try folder.compileFixture("working")
        try folder.writeFixtureManifest(name: "working", library: "libworking.so", abiVersion: 7)
        let fault = try onlyFault(in: folder)
        #expect(fault.reason == .unsupportedABIVersion)
        #expect(fault.file.hasSuffix("working.json"))
    }

    @Test(arguments: [("name_mismatch", "impostor"), ("version_mismatch", "2.0.0"), ("format_mismatch", "not-fixture")])
    func descriptorDisagreesWithManifest(stem: String, disagreement: String) throws {
        let fault = try onlyFault(in: try folder(withFixture: stem))
        #expect(fault.reason == .descriptorMismatch)
        #expect(fault.plugin == stem)
        #expect(fault.detail.contains(disagreement), "\(fault.detail)")
    }

    @Test func missingEntrySymbol() throws {
        let fault = try onlyFault(in: try folder(withFixture: "missing_entry"))
        #expect(fault.reason == .entrySymbolMissing)
        #expect(fault.detail.contains("webimage_plugin_entry"))
    }

    @Test func unresolvedSymbol() throws {
        let fault = try onlyFault(in: try folder(withFixture: "unresolved_symbol"))
        #expect(fault.reason == .unresolvedSymbol)
        #expect(fault.detail.contains("webimage_symbol_that_does_not_exist"))
    }

    @Test func entryReturnsNull() throws {
        let fault = try onlyFault(in: try folder(withFixture: "null_entry"))
        #expect(fault.reason == .entryFailed)
    }

    @Test func libraryMissing() throws {
        let folder = try PluginsFolder()
        try folder.writeFixtureManifest(name: "ghost", library: "libghost.so")
        let fault = try onlyFault(in: folder)
        #expect(fault.reason == .libraryMissing)
        #expect(fault.file == folder.url.appendingPathComponent("libghost.so").path)
    }

    @Test func notASharedObject() throws {
        let folder = try PluginsFolder()
        try folder.write("libtext.so", "this is text, not ELF\n")
        try folder.writeFixtureManifest(name: "text", library: "libtext.so")
        let fault = try onlyFault(in: folder)
        #expect(fault.reason == .notSharedObject)
        #expect(fault.file.hasSuffix("libtext.so"))
    }

    @Test func aPluginLibraryWithoutManifestIsOneWarningAndNoFault() throws {
        let folder = try PluginsFolder()
        try folder.compileFixture("working")
        let library = folder.url.appendingPathComponent("libworking.so").path
        let host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
        #expect(host.verify().isEmpty)
        #expect(
            host.warnings.map(\.description) == [
                "\(library): a plugin library that no manifest in \(folder.path) names; it is never opened "
                    + "(write a manifest beside it, see docs/writing-a-plugin.md)"
            ])
    }

    @Test func oneManifestMistakeIsOneFaultNamingTheFileAndTheMistake() throws {
        let folder = try PluginsFolder()
        try folder.compileFixture("working")
        try folder.write(
            "working.json",
            #"""
            { "name": "working", "version": "1.0.0", "abi_version": 1, "library": "libworking.so",
              "kinds": ["coder"], "priority": 0,
              "formats": [{ "name": "fixt", "mime_types": ["image/x-fixt"], "extensions": ["fixt"],
                            "signatures": ["46495854"], "capabilities": ["decode", "fly"] }] }
            """#)
        let manifest = folder.url.appendingPathComponent("working.json").path
        let host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
        #expect(
            host.verify().map(\.description) == [
                "\(manifest): invalid manifest (plugin 'working'): format 'fixt' has an unknown capability 'fly'"
            ])
        #expect(host.warnings.isEmpty)
    }

    @Test(arguments: [
        ("{ not json", "not valid JSON"),
        (#"{ "name": "x", "abi_version": 1, "library": "l.so", "kinds": ["coder"] }"#, "missing field 'version'"),
    ])
    func invalidManifest(text: String, detail: String) throws {
        let folder = try PluginsFolder()
        try folder.write("broken.json", text)
        let fault = try onlyFault(in: folder)
        #expect(fault.reason == .invalidManifest)
        #expect(fault.file.hasSuffix("broken.json"))
        #expect(fault.detail.contains(detail), "\(fault.detail)")
    }

    @Test func duplicateNamesKeepTheFirstInSearchOrder() throws {
        let first = try folder(withFixture: "working")
        let second = try folder(withFixture: "working")
        let host = PluginHost(searchPath: PluginSearchPath(directories: [first.path, second.path]))
        #expect(host.plugins.map(\.manifestPath) == [first.url.appendingPathComponent("working.json").path])
        #expect(host.faults.map(\.reason) == [.duplicateName])
        #expect(host.faults.first?.file == second.url.appendingPathComponent("working.json").path)
    }

    @Test func brokenPluginsDoNotStopTheOthers() throws {
        let folder = try PluginsFolder()
        try folder.addPNGAndJPEG()
        for stem in ["wrong_abi", "name_mismatch", "missing_entry", "unresolved_symbol", "null_entry"] {
            try folder.compileFixture(stem)
            try folder.writeFixtureManifest(name: stem, library: "lib\(stem).so")
        }
        try folder.write("libtext.so", "not ELF")
        try folder.writeFixtureManifest(name: "text", library: "libtext.so")
        let host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
        let manager = host.makeCodersManager()
        let image = try manager.decode(try Fixture.bytes("png/rgba8.png"))
        #expect(image.width == 13)
        #expect(
            Set(host.verify().map(\.reason)) == [
                .unsupportedABIVersion, .descriptorMismatch, .entrySymbolMissing, .unresolvedSymbol, .entryFailed,
                .notSharedObject,
            ])
        #expect(try manager.decode(try Fixture.bytes("jpeg/baseline.jpg")).width == 61)
    }
}
