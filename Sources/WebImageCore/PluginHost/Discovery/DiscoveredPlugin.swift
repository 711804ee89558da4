/// A plugin found through its manifest; nothing has been loaded yet.
public struct DiscoveredPlugin: Sendable, Equatable {
    public let manifest: PluginManifest
    /// Absolute path of the manifest file.
    public let manifestPath: String
    /// Absolute path of the shared object the manifest names.
    public let libraryPath: String
    /// Whether the manifest lies in a trusted folder of the search path.
    public let trust: PluginTrust

    public var name: String { manifest.name }

    /// A plugin read from `manifestPath`; `trust` defaults to ``PluginTrust/untrusted``.
    public init(manifest: PluginManifest, manifestPath: String, libraryPath: String, trust: PluginTrust = .untrusted) {
        self.manifest = manifest
        self.manifestPath = manifestPath
        self.libraryPath = libraryPath
        self.trust = trust
    }
}

extension DiscoveredPlugin {
    /// A `.descriptorMismatch` fault about this plugin's library, for a kind adapter to throw.
    public func mismatch(_ detail: String) -> PluginFault {
        PluginFault(.descriptorMismatch, file: libraryPath, plugin: name, detail: detail)
    }

    /// `table` when the descriptor sets it; else the fault that `kind`'s table (for example
    /// "disk cache") is NULL although the kind is declared.
    public func requireTable<Table>(_ table: Table?, of kind: String) throws(PluginFault) -> Table {
        guard let table else { throw mismatch("the \(kind) kind is set but the \(kind) table is NULL") }
        return table
    }
}
