import CWebImagePlugin

/// A plugin whose library is open and whose descriptor matched its manifest, with one
/// adapter per kind it declares.
public struct OpenedPlugin: @unchecked Sendable {
    // @unchecked: `descriptor` points at immutable memory that lives as long as the
    // process (plugins are never unloaded); everything else is Sendable.
    public let plugin: DiscoveredPlugin
    /// The descriptor, valid for the life of the process.
    public let descriptor: UnsafePointer<webimage_plugin_descriptor>
    /// The ABI version the descriptor declares.
    public let abiVersion: UInt32
    /// The kinds the descriptor declares.
    public let kinds: [PluginKind]
    /// One adapter for each declared kind this host has an adapter for, in ``kinds`` order.
    public let adapters: [any PluginKindAdapter]

    /// Declared kinds this host has no adapter for (a plugin newer than the host); they
    /// are not used, and the plugin's other kinds still work.
    public var kindsWithoutAdapter: [PluginKind] {
        kinds.filter { kind in !adapters.contains { type(of: $0).kind == kind } }
    }

    /// The plugin's adapter of type `Adapter`, when it declares that kind.
    public func adapter<Adapter: PluginKindAdapter>(_ type: Adapter.Type) -> Adapter? {
        adapters.lazy.compactMap { $0 as? Adapter }.first
    }

    /// The plugin's coder, when it has the coder kind.
    public var coder: PluginCoder? { adapter(PluginCoder.self) }
}
