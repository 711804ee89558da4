import FoundationEssentials

/// Which plugins found on disk a host may open, and which untrusted plugins may take over
/// what a trusted plugin serves.
///
/// - A plugin on ``deniedPlugins`` is never opened; with an ``allowedPlugins`` list, no
///   plugin outside it is opened either. Both apply to trusted plugins too.
/// - An untrusted plugin (see ``PluginTrust``) may add plugin names, formats and kinds, but
///   may not claim a plugin name, format name, MIME type, extension, magic signature, loader
///   scheme or transformer name that a trusted plugin serves, unless it is on
///   ``overridesAllowed``. A plugin that tries is refused whole (never opened) and reported
///   as a ``PluginRefusal``.
///
/// The policy is about plugins found on disk: coders a host app registers in-process
/// (``CodersManager/register(_:priority:signatures:extensions:)``) keep their priority rules.
public struct PluginPolicy: Sendable, Equatable {
    /// Comma-separated plugin names added to ``allowedPlugins``.
    public static let allowEnvironmentVariable = "WEBIMAGE_PLUGIN_ALLOW"
    /// Comma-separated plugin names added to ``deniedPlugins``.
    public static let denyEnvironmentVariable = "WEBIMAGE_PLUGIN_DENY"
    /// Comma-separated plugin names added to ``overridesAllowed``.
    public static let allowOverrideEnvironmentVariable = "WEBIMAGE_PLUGIN_ALLOW_OVERRIDE"
    /// `1` sets ``allowsInsecurePermissions``.
    public static let allowInsecureEnvironmentVariable = "WEBIMAGE_PLUGIN_ALLOW_INSECURE"

    /// When set, the only plugins that may be opened; nil (the default) allows every plugin
    /// not denied.
    public var allowedPlugins: Set<String>?
    /// Plugins never opened, even when allowed; default none.
    public var deniedPlugins: Set<String>
    /// Untrusted plugins that may take over what a trusted plugin serves; default none.
    public var overridesAllowed: Set<String>
    /// Open plugins whose folder or library others may change (group- or world-writable, or
    /// owned by a user other than root and this process's); default false: they are
    /// `.insecurePermissions` faults.
    public var allowsInsecurePermissions = false

    /// A policy with these lists; by default every plugin may be opened and no untrusted
    /// plugin may take over a trusted one.
    public init(allowedPlugins: Set<String>? = nil, deniedPlugins: Set<String> = [], overridesAllowed: Set<String> = [])
    {
        self.allowedPlugins = allowedPlugins
        self.deniedPlugins = deniedPlugins
        self.overridesAllowed = overridesAllowed
    }

    /// The host's lists joined with those of the environment variables
    /// (``allowEnvironmentVariable``, ``denyEnvironmentVariable``,
    /// ``allowOverrideEnvironmentVariable``). An allow list given in either place is an allow
    /// list; insecure permissions are allowed by `allowsInsecurePermissions` or
    /// ``allowInsecureEnvironmentVariable`` set to `1`.
    /// - Parameter environment: where the variables are read; default the process environment.
    public static func standard(
        allowedPlugins: [String] = [], deniedPlugins: [String] = [], overridesAllowed: [String] = [],
        allowsInsecurePermissions: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> PluginPolicy {
        func names(_ variable: String) -> [String] {
            (environment[variable] ?? "").split(separator: ",").map { String($0).trimmingWhitespace }
                .filter { !$0.isEmpty }
        }
        let allowed = allowedPlugins + names(allowEnvironmentVariable)
        var policy = PluginPolicy(
            allowedPlugins: allowed.isEmpty ? nil : Set(allowed),
            deniedPlugins: Set(deniedPlugins + names(denyEnvironmentVariable)),
            overridesAllowed: Set(overridesAllowed + names(allowOverrideEnvironmentVariable)))
        policy.allowsInsecurePermissions =
            allowsInsecurePermissions || environment[allowInsecureEnvironmentVariable] == "1"
        return policy
    }

    /// Why the lists keep the plugin `name` closed, or nil when it may be opened.
    public func closure(of name: String) -> PluginRefusal.Reason? {
        if deniedPlugins.contains(name) { return .denied }
        if let allowedPlugins, !allowedPlugins.contains(name) { return .notAllowed }
        return nil
    }
}
