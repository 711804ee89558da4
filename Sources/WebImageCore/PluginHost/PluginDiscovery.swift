import Foundation

/// Finds plugins by reading manifests; never opens a library.
public enum PluginDiscovery {
    /// What a search found: usable plugins in search order, the plugins the policy keeps
    /// closed, and the faults of the rest.
    public struct Result: Sendable {
        public var plugins: [DiscoveredPlugin] = []
        /// Plugins the ``PluginPolicy`` refuses, in search order.
        public var refusals: [PluginRefusal] = []
        public var faults: [PluginFault] = []
    }

    /// Reads every `*.json` manifest in the folders of `searchPath`, in order and sorted by
    /// file name within a folder, then applies `policy` (default: no allow or deny list, no
    /// override allowed).
    ///
    /// A plugin is trusted when its folder is one of ``PluginSearchPath/trustedDirectories``.
    /// A trusted plugin keeps its name: an untrusted plugin of the same name, or one claiming
    /// a format, MIME type, extension, signature, loader scheme or transformer name of a
    /// trusted plugin, is refused unless `policy` allows it to override. Otherwise a later
    /// plugin with a name already found is a `.duplicateName` fault. A `*.so` that no
    /// manifest names is a `.manifestMissing` fault.
    public static func discover(in searchPath: PluginSearchPath, policy: PluginPolicy = PluginPolicy()) -> Result {
        var result = Result()
        var candidates: [DiscoveredPlugin] = []
        let fileManager = FileManager.default
        for directory in searchPath.directories {
            guard let names = try? fileManager.contentsOfDirectory(atPath: directory) else { continue }
            var namedLibraries = Set<String>()
            let trust = searchPath.trust(ofDirectory: directory)
            for fileName in names.sorted() where fileName.hasSuffix(".json") {
                let manifestPath = directory + "/" + fileName
                let manifest: PluginManifest
                do {
                    manifest = try PluginManifest.load(from: manifestPath)
                } catch {
                    result.faults.append(error)
                    continue
                }
                let libraryPath =
                    manifest.library.hasPrefix("/")
                    ? manifest.library
                    : URL(fileURLWithPath: directory).appendingPathComponent(manifest.library).standardizedFileURL.path
                namedLibraries.insert(libraryPath)
                candidates.append(
                    DiscoveredPlugin(
                        manifest: manifest, manifestPath: manifestPath, libraryPath: libraryPath, trust: trust))
            }
            for fileName in names.sorted() where fileName.hasSuffix(".so") || fileName.contains(".so.") {
                let libraryPath = directory + "/" + fileName
                if !namedLibraries.contains(libraryPath) {
                    result.faults.append(
                        PluginFault(
                            .manifestMissing, file: libraryPath,
                            detail: "no manifest in \(directory) names this library; it is ignored"))
                }
            }
        }
        let outcome = PluginAdmission(policy: policy).admit(candidates)
        result.plugins = outcome.plugins
        result.refusals = outcome.refusals
        result.faults += outcome.faults
        return result
    }
}
