import Foundation

/// Finds plugins by reading manifests; never opens a library.
public enum PluginDiscovery {
    /// What a search found: usable plugins in search order, and the faults of the rest.
    public struct Result: Sendable {
        public var plugins: [DiscoveredPlugin] = []
        public var faults: [PluginFault] = []
    }

    /// Reads every `*.json` manifest in the folders of `searchPath`, in order and sorted by
    /// file name within a folder. A plugin is trusted when its folder is one of
    /// ``PluginSearchPath/trustedDirectories``. A later plugin with a name already found is a
    /// `.duplicateName` fault; a `*.so` that no manifest names is a `.manifestMissing` fault.
    public static func discover(in searchPath: PluginSearchPath) -> Result {
        var result = Result()
        var pathsByName: [String: String] = [:]
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
                if let earlier = pathsByName[manifest.name] {
                    result.faults.append(
                        PluginFault(
                            .duplicateName, file: manifestPath, plugin: manifest.name,
                            detail:
                                "a plugin named '\(manifest.name)' was already found at \(earlier); this one is skipped"
                        ))
                    continue
                }
                pathsByName[manifest.name] = manifestPath
                result.plugins.append(
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
        return result
    }
}
