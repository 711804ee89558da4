import WebImageCore

/// One manifest format as JSON.
struct ManifestFormatReport: Encodable {
    let name: String
    let mimeTypes: [String]
    let extensions: [String]
    let signatures: [String]
    let capabilities: [String]

    enum CodingKeys: String, CodingKey {
        case name, extensions, signatures, capabilities
        case mimeTypes = "mime_types"
    }

    init(_ format: PluginManifest.Format) {
        name = format.name
        mimeTypes = format.mimeTypes
        extensions = format.extensions
        signatures = format.signatures
        capabilities = format.capabilities
    }
}

/// What a plugin's manifest says, with the paths the host resolved, as JSON: one key per
/// kind's section (`coder`, `loader`, `memory_cache`, `disk_cache`, `transformer`), as in
/// the manifest. `priority` and `formats` repeat the coder section's at the top level, where
/// scripts written for the flat manifests read them (0 and empty without a coder).
struct ManifestReport: Encodable {
    let name: String
    let version: String
    let abiVersion: UInt32
    let kinds: [String]
    let priority: Int
    let summary: String?
    let formats: [ManifestFormatReport]
    let library: String
    let manifest: String
    let coder: PluginManifest.CoderSection?
    let loader: PluginManifest.LoaderSection?
    let memoryCache: PluginManifest.MemoryCacheSection?
    let diskCache: PluginManifest.DiskCacheSection?
    let transformer: PluginManifest.TransformerSection?

    enum CodingKeys: String, CodingKey {
        case name, version, kinds, priority, summary, formats, library, manifest, coder, loader, transformer
        case abiVersion = "abi_version"
        case memoryCache = "memory_cache"
        case diskCache = "disk_cache"
    }

    init(_ plugin: DiscoveredPlugin) {
        let manifest = plugin.manifest
        name = manifest.name
        version = manifest.version
        abiVersion = manifest.abiVersion
        kinds = manifest.kinds.map(\.rawValue)
        priority = manifest.priority
        summary = manifest.summary
        formats = manifest.formats.map(ManifestFormatReport.init)
        library = plugin.libraryPath
        self.manifest = plugin.manifestPath
        coder = manifest.coder
        loader = manifest.loader
        memoryCache = manifest.memoryCache
        diskCache = manifest.diskCache
        transformer = manifest.transformer
    }
}

/// A plugin fault as JSON.
struct FaultReport: Encodable {
    let reason: String
    let file: String
    let plugin: String?
    let detail: String

    init(_ fault: PluginFault) {
        reason = fault.reason.rawValue
        file = fault.file
        plugin = fault.plugin
        detail = fault.detail
    }
}
