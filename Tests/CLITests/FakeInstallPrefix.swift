import Foundation
import WebImageTestSupport

/// An install prefix made by a test inside the build folder: `bin/webimage` and
/// `bin/webimage-plugin-worker`, hard links to the built tool and worker, and `lib/webimage/plugins` with every bundled plugin (manifests copied,
/// libraries hard-linked, so their real paths lie in the install folder). Run from there, the tool finds those plugins as its install folder,
/// the trusted set. Removed when released.
final class FakeInstallPrefix: Sendable {
    let root: URL
    /// `bin/webimage`.
    let executable: URL
    /// `lib/webimage/plugins`.
    let plugins: URL

    init() throws {
        let built = try BuildProducts.executable
        root = built.deletingLastPathComponent().appendingPathComponent("cli-prefix-\(UUID().uuidString)")
        executable = root.appendingPathComponent("bin/webimage")
        plugins = root.appendingPathComponent("lib/webimage/plugins")
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: executable.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fileManager.createDirectory(at: plugins, withIntermediateDirectories: true)
        // A hard link, not a copy: no test runs a file still open for writing ("Text file busy").
        try fileManager.linkItem(at: built, to: executable)
        try fileManager.linkItem(
            at: built.deletingLastPathComponent().appendingPathComponent("webimage-plugin-worker"),
            to: executable.deletingLastPathComponent().appendingPathComponent("webimage-plugin-worker"))
        for plugin in try BuildProducts.bundledPlugins {
            try fileManager.copyItem(
                at: BuildProducts.manifest(plugin.manifest), to: plugins.appendingPathComponent(plugin.manifest))
            try PluginsFolder.place(
                try BuildProducts.library(plugin.library), at: plugins.appendingPathComponent(plugin.library))
        }
    }

    /// The path of `name` in the plugins folder.
    func plugin(_ name: String) -> String {
        plugins.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }
}
