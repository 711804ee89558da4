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
    /// `trusted` (a trusted folder: the install folder) or `untrusted`.
    let trust: String
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
        case name, version, trust, kinds, priority, summary, formats, library, manifest, coder, loader, transformer
        case abiVersion = "abi_version"
        case memoryCache = "memory_cache"
        case diskCache = "disk_cache"
    }

    init(_ plugin: DiscoveredPlugin) {
        let manifest = plugin.manifest
        name = manifest.name
        version = manifest.version
        abiVersion = manifest.abiVersion
        trust = plugin.trust.rawValue
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

/// A plugin the policy keeps closed, as JSON.
struct RefusalReport: Encodable {
    let name: String
    let trust: String
    let manifest: String
    let library: String
    /// `denied`, `not allowed`, `takeover` or `overridden`.
    let reason: String
    let detail: String
    /// For a takeover, what the plugin claimed and which trusted plugin serves it.
    let conflicts: [ConflictReport]

    struct ConflictReport: Encodable {
        let claim: String
        let value: String
        let trustedPlugin: String
        let trustedValue: String

        enum CodingKeys: String, CodingKey {
            case claim, value
            case trustedPlugin = "trusted_plugin"
            case trustedValue = "trusted_value"
        }
    }

    init(_ refusal: PluginRefusal) {
        name = refusal.plugin.name
        trust = refusal.plugin.trust.rawValue
        manifest = refusal.plugin.manifestPath
        library = refusal.plugin.libraryPath
        detail = refusal.detail
        switch refusal.reason {
        case .denied:
            reason = "denied"
            conflicts = []
        case .notAllowed:
            reason = "not allowed"
            conflicts = []
        case .takeover(let found):
            reason = "takeover"
            conflicts = found.map {
                ConflictReport(
                    claim: $0.claim.kind.rawValue, value: $0.claim.value, trustedPlugin: $0.trustedPlugin,
                    trustedValue: $0.trustedClaim.value)
            }
        case .overridden:
            reason = "overridden"
            conflicts = []
        }
    }
}
