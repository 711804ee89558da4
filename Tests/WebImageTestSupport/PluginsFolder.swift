import Foundation

/// A temporary plugins folder assembled by a test: manifests plus links to (or builds of)
/// plugin libraries. Removed when released.
public final class PluginsFolder: Sendable {
    private let directory: TemporaryDirectory

    public var url: URL { directory.url }
    public var path: String { directory.path }

    /// An empty plugins folder.
    public init() throws {
        directory = try TemporaryDirectory()
    }

    /// Adds a bundled plugin: its manifest from `plugin-manifests/` and a hard link to its
    /// built library (a copy across file systems), so the library really lies in this folder
    /// as a trusted folder requires.
    public func addBundled(manifest: String, library: String) throws {
        try FileManager.default.copyItem(
            at: BuildProducts.manifest(manifest), to: url.appendingPathComponent(manifest))
        try Self.place(try BuildProducts.library(library), at: url.appendingPathComponent(library))
    }

    /// A hard link to `file` at `destination`, or a copy when they are on different file systems.
    public static func place(_ file: URL, at destination: URL) throws {
        do {
            try FileManager.default.linkItem(at: file, to: destination)
        } catch {
            try FileManager.default.copyItem(at: file, to: destination)
        }
    }

    /// Adds the PNG and JPEG plugins.
    public func addPNGAndJPEG() throws {
        try addBundled(manifest: "png.json", library: "libWebImagePNG.so")
        try addBundled(manifest: "jpeg.json", library: "libWebImageJPEG.so")
    }

    /// Adds every plugin of `plugin-manifests/`.
    public func addAllBundled() throws {
        for plugin in try BuildProducts.bundledPlugins {
            try addBundled(manifest: plugin.manifest, library: plugin.library)
        }
    }

    /// The path of `name` inside the folder (the file need not exist).
    public func file(_ name: String) -> String {
        directory.file(name)
    }

    /// Writes `text` to `name` in the folder.
    public func write(_ name: String, _ text: String) throws {
        try directory.write(name, text)
    }

    /// Compiles C sources into `library` in this folder with the system C compiler, against
    /// the plugin header (`-std=c11 -O1 -shared -fPIC` plus `extraFlags`).
    public func compile(_ sources: [URL], into library: String, extraFlags: [String] = []) throws {
        _ = try ChildProcess.output(
            of: "/usr/bin/cc",
            ["-std=c11", "-O1", "-shared", "-fPIC", "-I", BuildProducts.pluginHeaderDirectory.path]
                + extraFlags + ["-o", url.appendingPathComponent(library).path] + sources.map(\.path))
    }

    /// Builds `Examples/ThirdPartyCoder` (the PNM coder in C) into this folder with its manifest.
    public func addThirdPartyExample() throws {
        try addExample("ThirdPartyCoder", library: "libwebimage-pnm.so", manifest: "pnm.json")
    }

    /// Builds `Examples/ThirdPartyTransformer` (grayscale, sepia and pixelate in C) into this
    /// folder with its manifest.
    public func addThirdPartyTransformerExample() throws {
        try addExample("ThirdPartyTransformer", library: "libwebimage-effects.so", manifest: "effects.json")
    }

    /// Compiles every `.c` file of `Examples/<example>` into `library` with warnings as
    /// errors, and copies its `manifest` beside it.
    private func addExample(_ example: String, library: String, manifest: String) throws {
        let folder = BuildProducts.repository.appendingPathComponent("Examples/\(example)")
        let sources = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".c") }.sorted().map { folder.appendingPathComponent($0) }
        try compile(sources, into: library, extraFlags: ["-Wall", "-Wextra", "-Werror"])
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent(manifest), to: url.appendingPathComponent(manifest))
    }
}
