/// A plugin found through its manifest; nothing has been loaded yet.
public struct DiscoveredPlugin: Sendable, Equatable {
    public let manifest: PluginManifest
    /// Absolute path of the manifest file.
    public let manifestPath: String
    /// Absolute path of the shared object the manifest names.
    public let libraryPath: String

    public var name: String { manifest.name }
}
