import FoundationEssentials
import WebImagePluginManifests

/// The bundled plugins' manifests that SwiftPM copied beside an executable it built (the
/// resources of the `WebImagePluginManifests` target, which WebImageCore depends on).
enum BuiltPluginManifests {
    /// The resource folder beside `executable` that holds the manifests, or nil when there is
    /// none (an installed executable, for example).
    static func directory(besideExecutable executable: String) -> String? {
        let folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().first { $0.hasSuffix(WEBIMAGE_PLUGIN_MANIFESTS_FOLDER_SUFFIX) }
            .map { folder.appendingPathComponent($0).path }
    }
}
