/// Why a plugin was skipped. The host keeps working without it.
public struct PluginFault: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable, Equatable, CaseIterable {
        /// The manifest file cannot be read.
        case manifestUnreadable = "manifest unreadable"
        /// The manifest is not valid JSON, lacks a field or has a wrong value.
        case invalidManifest = "invalid manifest"
        /// The manifest names a library file that does not exist.
        case libraryMissing = "library missing"
        /// The library file is not an ELF shared object.
        case notSharedObject = "not a shared object"
        /// The library does not export `webimage_plugin_entry`.
        case entrySymbolMissing = "entry symbol missing"
        /// The library needs a symbol that nothing provides.
        case unresolvedSymbol = "unresolved symbol"
        /// The library could not be loaded for another reason.
        case loadFailed = "load failed"
        /// The manifest or descriptor declares an ABI version this host does not support.
        case unsupportedABIVersion = "unsupported ABI version"
        /// The descriptor disagrees with the manifest (name, version, kinds, formats) or is malformed.
        case descriptorMismatch = "descriptor does not match manifest"
        /// The entry function returned no descriptor.
        case entryFailed = "entry function failed"
        /// The entry function crashed the child process that opened the plugin first.
        case entryCrashed = "entry function crashed"
        /// The entry function did not return within the open deadline in the child process.
        case entryHung = "entry function hung"
        /// Another plugin with the same name was found first.
        case duplicateName = "duplicate plugin name"
        /// No manifest in the search path names the plugin asked for.
        case notFound = "no such plugin"
        /// The plugin asked for is kept closed by the ``PluginPolicy`` (see ``PluginRefusal``).
        case refused = "refused by the plugin policy"
        /// The plugin's folder or library may be changed by others (group- or world-writable,
        /// or owned by another user than root and this process's).
        case insecurePermissions = "insecure permissions"
        /// The plugin must run isolated and no `webimage-plugin-worker` executable was found
        /// (``PluginIsolation/workerExecutableCandidates(forPluginsIn:)``).
        case workerMissing = "plugin worker missing"
    }

    public let reason: Reason
    /// The manifest or library file the fault is about.
    public let file: String
    /// The plugin's name when known.
    public let plugin: String?
    /// The cause, for people.
    public let detail: String

    public init(_ reason: Reason, file: String, plugin: String? = nil, detail: String) {
        self.reason = reason
        self.file = file
        self.plugin = plugin
        self.detail = detail
    }

    public var description: String {
        "\(file): \(reason.rawValue)\(plugin.map { " (plugin '\($0)')" } ?? ""): \(detail)"
    }
}
