import CWebImagePlugin

/// Turns one kind's table in a plugin descriptor into the Swift object the rest of the
/// core uses (a coder table becomes a ``PluginCoder``, which is an ``ImageCoder``).
///
/// The host knows nothing about any kind: when it opens a plugin it asks each adapter in
/// its list whose ``kind`` the descriptor declares to wrap that kind's table. Adding a kind
/// means writing an adapter and adding it to ``PluginKindAdapters/standard``; the host is
/// not edited.
public protocol PluginKindAdapter: Sendable {
    /// The kind whose table this adapter wraps.
    static var kind: PluginKind { get }

    /// Reads this kind's table from `descriptor` (only the bytes its `struct_size` covers)
    /// and checks it against the kind's section of the plugin's manifest.
    /// - Throws: ``PluginFault`` `.descriptorMismatch` naming what disagrees.
    init(descriptor: webimage_plugin_descriptor, plugin: DiscoveredPlugin) throws(PluginFault)
}

/// The adapters a host uses unless it is given others.
public enum PluginKindAdapters {
    /// One adapter per kind this version of the core implements.
    public static let standard: [any PluginKindAdapter.Type] = [
        PluginCoder.self,
        PluginDiskCacheBackend.self,
        PluginLoader.self,
        PluginMemoryCacheBackend.self,
        PluginTransformerFactory.self,
    ]
}
