/// Something about a plugin found on disk that people should look at, which does not keep it
/// closed: a library in a trusted folder that really lies elsewhere (the plugin is treated as
/// untrusted), or two trusted plugins claiming the same thing.
public struct PluginWarning: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The manifest lies in a trusted folder but its library resolves outside it (an
        /// absolute path or a symbolic link): the plugin is untrusted.
        case libraryOutsideTrustedFolder = "library outside the trusted folder"
        /// A trusted plugin claims a format, MIME type, extension, signature, loader scheme or
        /// transformer name that an earlier trusted plugin claims too.
        case trustedOverlap = "trusted plugins overlap"
    }

    public let kind: Kind
    public let plugin: DiscoveredPlugin
    /// What was found, in one sentence without the plugin's name or path.
    public let detail: String

    public init(_ kind: Kind, plugin: DiscoveredPlugin, detail: String) {
        self.kind = kind
        self.plugin = plugin
        self.detail = detail
    }

    public var description: String {
        "plugin '\(plugin.name)' (\(plugin.manifestPath)): \(detail)"
    }
}
