/// Something found on disk that people should look at, which does not keep a plugin closed:
/// a library in a trusted folder that really lies elsewhere (the plugin is treated as
/// untrusted), two trusted plugins claiming the same thing, or a plugin library that no
/// manifest names.
public struct PluginWarning: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The manifest lies in a trusted folder but its library resolves outside it (an
        /// absolute path or a symbolic link): the plugin is untrusted.
        case libraryOutsideTrustedFolder = "library outside the trusted folder"
        /// A trusted plugin claims a format, MIME type, extension, signature, loader scheme or
        /// transformer name that an earlier trusted plugin claims too.
        case trustedOverlap = "trusted plugins overlap"
        /// A shared object in a plugins folder exports `webimage_plugin_entry` but no manifest
        /// names it: it is never opened. (Libraries without the entry symbol, a plugin's helper
        /// libraries, are not reported.)
        case manifestMissing = "manifest missing"
    }

    public let kind: Kind
    /// The plugin; nil for ``Kind/manifestMissing``, which is about a library alone.
    public let plugin: DiscoveredPlugin?
    /// The manifest the warning is about, or the library for ``Kind/manifestMissing``.
    public let file: String
    /// What was found, in one sentence without the plugin's name or path.
    public let detail: String

    public init(_ kind: Kind, plugin: DiscoveredPlugin, detail: String) {
        self.kind = kind
        self.plugin = plugin
        self.file = plugin.manifestPath
        self.detail = detail
    }

    /// A warning about a file that no plugin owns (a library without a manifest).
    public init(_ kind: Kind, file: String, detail: String) {
        self.kind = kind
        self.plugin = nil
        self.file = file
        self.detail = detail
    }

    public var description: String {
        guard let plugin else { return "\(file): \(detail)" }
        return "plugin '\(plugin.name)' (\(file)): \(detail)"
    }
}
