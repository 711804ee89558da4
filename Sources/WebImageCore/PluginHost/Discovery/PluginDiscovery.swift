import CWebImagePlugin
import FoundationEssentials

/// Finds plugins by reading manifests; never opens a library.
public enum PluginDiscovery {
    /// What a search found: usable plugins in search order, the plugins the policy keeps
    /// closed, and the faults of the rest.
    public struct Result: Sendable {
        public var plugins: [DiscoveredPlugin] = []
        /// Plugins the ``PluginPolicy`` refuses, in search order.
        public var refusals: [PluginRefusal] = []
        public var faults: [PluginFault] = []
        /// Libraries of trusted folders that lie elsewhere, and overlaps between trusted
        /// plugins, in search order.
        public var warnings: [PluginWarning] = []
    }

    /// Reads every `*.json` manifest in the folders of `searchPath`, in order and sorted by
    /// file name within a folder, then applies `policy` (default: no allow or deny list, no
    /// override allowed).
    ///
    /// A plugin is trusted when its folder is one of ``PluginSearchPath/trustedDirectories``
    /// and its library's real path (symbolic links resolved) lies inside that folder's real
    /// path (the folder's ``PluginSearchPath/libraryDirectories`` entry when it has one); a library elsewhere (an absolute path, a link out) makes it untrusted, with a
    /// ``PluginWarning``. Unless `policy` allows insecure permissions, a plugin whose folder
    /// or library (its real file) is group- or world-writable, or owned by a user other than
    /// root and this process's, is an `.insecurePermissions` fault and never opened.
    /// A trusted plugin keeps its name: an untrusted plugin of the same name, or one claiming
    /// a format, MIME type, extension, signature, loader scheme or transformer name of a
    /// trusted plugin, is refused unless `policy` allows it to override. Otherwise a later
    /// plugin with a name already found is a `.duplicateName` fault.
    ///
    /// A manifest that cannot be read is one fault; the library it names (when its `library`
    /// field can be read) is not reported again. A `*.so` that exports `webimage_plugin_entry`
    /// and that no manifest names is a ``PluginWarning/Kind/manifestMissing`` warning; other
    /// libraries (a plugin's helper libraries) are not reported, nor is any library in a
    /// folder with a manifest whose `library` cannot be read (it may be that manifest's).
    public static func discover(in searchPath: PluginSearchPath, policy: PluginPolicy = PluginPolicy()) -> Result {
        var result = Result()
        var candidates: [DiscoveredPlugin] = []
        let fileManager = FileManager.default
        for directory in searchPath.directories {
            guard let names = try? fileManager.contentsOfDirectory(atPath: directory) else { continue }
            var namedLibraries = Set<String>()
            var someLibraryUnknown = false
            let folderTrust = searchPath.trust(ofDirectory: directory)
            let libraryDirectory = searchPath.libraryDirectory(forManifestsIn: directory)
            let folderInsecurity = policy.allowsInsecurePermissions ? nil : PluginFileCheck.insecurity(of: directory)
            for fileName in names.sorted() where fileName.hasSuffix(".json") {
                let manifestPath = directory + "/" + fileName
                let manifest: PluginManifest
                do {
                    manifest = try PluginManifest.load(from: manifestPath)
                } catch {
                    result.faults.append(error)
                    if let library = PluginManifest.declaredLibrary(at: manifestPath) {
                        namedLibraries.insert(resolvedLibrary(library, in: libraryDirectory))
                    } else {
                        someLibraryUnknown = true
                    }
                    continue
                }
                let libraryPath = resolvedLibrary(manifest.library, in: libraryDirectory)
                namedLibraries.insert(libraryPath)
                let realLibrary = PluginFileCheck.realPath(libraryPath)
                if let insecurity = folderInsecurity.map({ "the folder \(directory) is \($0)" })
                    ?? insecureLibrary(realLibrary, policy: policy)
                {
                    result.faults.append(
                        PluginFault(
                            .insecurePermissions, file: manifestPath, plugin: manifest.name,
                            detail: "\(insecurity): others could replace the plugin, so it is never opened (allow it "
                                + "with --allow-insecure-plugins or \(PluginPolicy.allowInsecureEnvironmentVariable)=1)"
                        ))
                    continue
                }
                var plugin = DiscoveredPlugin(
                    manifest: manifest, manifestPath: manifestPath, libraryPath: libraryPath, trust: folderTrust)
                if folderTrust == .trusted, let realLibrary,
                    let realFolder = PluginFileCheck.realPath(libraryDirectory),
                    !PluginFileCheck.lies(realLibrary, inside: realFolder)
                {
                    plugin = DiscoveredPlugin(
                        manifest: manifest, manifestPath: manifestPath, libraryPath: libraryPath, trust: .untrusted)
                    result.warnings.append(
                        PluginWarning(
                            .libraryOutsideTrustedFolder, plugin: plugin,
                            detail: "its library resolves to \(realLibrary), outside the trusted folder \(realFolder); "
                                + "the plugin is untrusted (isolated, and it may not take over trusted plugins)"))
                }
                candidates.append(plugin)
            }
            for fileName in names.sorted()
            where !someLibraryUnknown && (fileName.hasSuffix(".so") || fileName.contains(".so.")) {
                let libraryPath = directory + "/" + fileName
                if !namedLibraries.contains(libraryPath) && exportsEntrySymbol(libraryPath) {
                    result.warnings.append(
                        PluginWarning(
                            .manifestMissing, file: libraryPath,
                            detail: "a plugin library that no manifest in \(directory) names; it is never opened "
                                + "(write a manifest beside it, see docs/writing-a-plugin.md)"))
                }
            }
        }
        let outcome = PluginAdmission(policy: policy).admit(candidates)
        result.plugins = outcome.plugins
        result.refusals = outcome.refusals
        result.faults += outcome.faults
        result.warnings += outcome.warnings
        return result
    }

    /// The path of the library a manifest in `directory` names as `library`.
    private static func resolvedLibrary(_ library: String, in directory: String) -> String {
        library.hasPrefix("/")
            ? library : URL(fileURLWithPath: directory).appendingPathComponent(library).standardizedFileURL.path
    }

    /// True when the library at `path` exports the entry symbol (read from its dynamic symbol
    /// table, without opening it as a library).
    private static func exportsEntrySymbol(_ path: String) -> Bool {
        SharedObjectSymbols.exports(WEBIMAGE_PLUGIN_ENTRY_NAME, path: path)
    }

    /// Why the library at `realLibrary` may be changed by others, unless `policy` allows it.
    private static func insecureLibrary(_ realLibrary: String?, policy: PluginPolicy) -> String? {
        guard !policy.allowsInsecurePermissions, let realLibrary,
            let insecurity = PluginFileCheck.insecurity(of: realLibrary)
        else { return nil }
        return "the library \(realLibrary) is \(insecurity)"
    }
}
