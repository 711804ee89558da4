import Foundation

/// A temporary plugins folder assembled by a test; removed when released.
final class PluginsFolder {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-plugins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Adds a bundled plugin: its manifest from `plugin-manifests/` and a link to its built library.
    func addBundled(manifest: String, library: String) throws {
        try FileManager.default.copyItem(
            at: BuildProducts.manifest(manifest), to: url.appendingPathComponent(manifest))
        try FileManager.default.createSymbolicLink(
            at: url.appendingPathComponent(library), withDestinationURL: BuildProducts.library(library))
    }

    /// Adds the PNG and JPEG plugins.
    func addPNGAndJPEG() throws {
        try addBundled(manifest: "png.json", library: "libWebImagePNG.so")
        try addBundled(manifest: "jpeg.json", library: "libWebImageJPEG.so")
    }

    /// Writes `text` to `name` in the folder.
    func write(_ name: String, _ text: String) throws {
        try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// Writes a manifest for one of the fixture plugins (format `fixture`).
    func writeFixtureManifest(name: String, library: String, version: String = "1.0.0", abiVersion: Int = 1) throws {
        try write(
            "\(name).json",
            """
            { "name": "\(name)", "version": "\(version)", "abi_version": \(abiVersion), "library": "\(library)",
              "kinds": ["coder"], "priority": 0,
              "formats": [{ "name": "fixture", "mime_types": ["image/x-fixture"], "extensions": ["fixture"],
                            "signatures": ["46495854"], "capabilities": ["decode"] }] }
            """)
    }

    /// Compiles C sources into `library` in this folder with the system C compiler.
    func compile(_ sources: [URL], into library: String, extraFlags: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        process.arguments =
            ["-std=c11", "-O1", "-shared", "-fPIC", "-I", BuildProducts.pluginHeaderDirectory.path]
            + extraFlags + ["-o", url.appendingPathComponent(library).path] + sources.map(\.path)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CompileFailure(description: "cc failed for \(sources.map(\.lastPathComponent))")
        }
    }

    /// Compiles `Tests/PluginIntegrationTests/Fixtures/BrokenPlugins/<stem>.c` into `lib<stem>.so`.
    func compileFixture(_ stem: String) throws {
        let source = BuildProducts.repository.appendingPathComponent(
            "Tests/PluginIntegrationTests/Fixtures/BrokenPlugins/\(stem).c")
        try compile([source], into: "lib\(stem).so", extraFlags: ["-Wall", "-Wextra", "-Werror"])
    }

    struct CompileFailure: Error, CustomStringConvertible {
        var description: String
    }
}
