import CWebImagePlugin

/// A plugin whose library is open and whose descriptor matched its manifest.
public struct LoadedPlugin: @unchecked Sendable {
    public let plugin: DiscoveredPlugin
    /// The descriptor, valid for the life of the process (plugins are never unloaded).
    public let descriptor: UnsafePointer<webimage_plugin_descriptor>
    /// The ABI version the descriptor declares.
    public let abiVersion: UInt32
    /// The kinds the descriptor declares.
    public let kinds: [PluginKind]
    /// The plugin's coder, when it has the coder kind.
    public let coder: PluginCoder?
}
