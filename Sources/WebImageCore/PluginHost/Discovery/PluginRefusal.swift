/// A plugin found on disk that the ``PluginPolicy`` keeps closed: its library is never opened.
public struct PluginRefusal: Sendable, Equatable, CustomStringConvertible {
    /// Why the plugin is closed.
    public enum Reason: Sendable, Equatable {
        /// The deny list names it.
        case denied
        /// An allow list is set and does not name it.
        case notAllowed
        /// The plugin is untrusted and claims what trusted plugins serve (a warning: someone
        /// put it where it could take over a bundled plugin).
        case takeover([Conflict])
        /// The plugin is trusted, and an untrusted plugin of the same name that the policy
        /// allows to override took its place.
        case overridden(by: String)
    }

    /// One claim of an untrusted plugin that collides with a trusted plugin's claim.
    public struct Conflict: Sendable, Equatable, CustomStringConvertible {
        /// What the untrusted plugin claims.
        public let claim: PluginClaim
        /// The trusted plugin that serves it.
        public let trustedPlugin: String
        /// The trusted plugin's claim (differs from ``claim`` for overlapping signatures or case).
        public let trustedClaim: PluginClaim

        public var description: String {
            let what = trustedClaim == claim ? "\(claim)" : "\(claim) (against \(trustedClaim))"
            return "\(what) of trusted plugin '\(trustedPlugin)'"
        }
    }

    public let plugin: DiscoveredPlugin
    public let reason: Reason

    /// Whether the refusal is a warning for people: an untrusted plugin tried a takeover.
    public var isWarning: Bool {
        if case .takeover = reason { return true }
        return false
    }

    /// Why, in one sentence without the plugin's name or path.
    public var detail: String {
        switch reason {
        case .denied:
            return "denied (on the deny list); never opened"
        case .notAllowed:
            return "not on the allow list; never opened"
        case .takeover(let conflicts):
            return "untrusted plugin tried to take over "
                + conflicts.map(\.description).joined(separator: ", ")
                + "; refused and never opened (allow it by name with --allow-override \(plugin.name) or "
                + "\(PluginPolicy.allowOverrideEnvironmentVariable)=\(plugin.name))"
        case .overridden(let name):
            return "overridden by the untrusted plugin '\(name)', which is allowed to override it; never opened"
        }
    }

    public var description: String {
        "\(plugin.manifestPath): plugin '\(plugin.name)': \(detail)"
    }
}
