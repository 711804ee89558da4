import ArgumentParser
import Synchronization
import WebImageCore

/// Options every command takes: where to look for plugins, which of them may be opened,
/// how to isolate them, and whether to log.
public struct PluginOptions: ParsableArguments {
    @Option(
        name: .customLong("plugin-path"),
        help: ArgumentHelp(
            "A folder of plugin manifests and libraries, searched before WEBIMAGE_PLUGIN_PATH (repeatable).",
            valueName: "dir"))
    public var pluginPaths: [String] = []

    @Option(
        name: .customLong("allow-override"),
        help: ArgumentHelp(
            "Let the untrusted plugin NAME take over a name, format, extension, signature, scheme or transformer of a bundled plugin (repeatable; adds to WEBIMAGE_PLUGIN_ALLOW_OVERRIDE).",
            valueName: "name"))
    public var overridesAllowed: [String] = []

    @Option(
        name: .customLong("allow-plugin"),
        help: ArgumentHelp(
            "Open only the plugins named (repeatable; adds to WEBIMAGE_PLUGIN_ALLOW).", valueName: "name"))
    public var allowedPlugins: [String] = []

    @Option(
        name: .customLong("deny-plugin"),
        help: ArgumentHelp(
            "Never open the plugin NAME (repeatable; adds to WEBIMAGE_PLUGIN_DENY).", valueName: "name"))
    public var deniedPlugins: [String] = []

    @Option(
        help: ArgumentHelp(
            "Which coder plugins run in a worker process: none, untrusted (those outside the install folder), or all.",
            valueName: "policy"))
    public var isolation: PluginIsolation.Policy = .untrusted

    @Option(
        help: ArgumentHelp(
            "Seconds one call into an isolated plugin, or opening a plugin in a child process, may take before the process is killed (default: 30 for calls, 10 for opening).",
            valueName: "seconds"))
    public var pluginTimeout: Double?

    @Flag(help: "Print plugin and coder warnings to standard error.")
    public var verbose = false

    @Flag(
        help:
            "Open plugins whose folder or library is group- or world-writable or owned by another user (as WEBIMAGE_PLUGIN_ALLOW_INSECURE=1)."
    )
    public var allowInsecurePlugins = false

    public init() {}

    public func validate() throws {
        if let pluginTimeout, !(pluginTimeout > 0 && pluginTimeout <= 86_400) {
            throw ValidationError(
                "--plugin-timeout must be more than 0 and at most 86400 seconds, not \(pluginTimeout)")
        }
    }

    /// The standard search path with the `--plugin-path` folders first.
    public var searchPath: PluginSearchPath {
        .standard(hostDirectories: pluginPaths)
    }

    /// The allow, deny and override lists of the options joined with the environment's.
    public var policy: PluginPolicy {
        .standard(
            allowedPlugins: allowedPlugins, deniedPlugins: deniedPlugins, overridesAllowed: overridesAllowed,
            allowsInsecurePermissions: allowInsecurePlugins)
    }

    /// The isolation the options ask for.
    public var pluginIsolation: PluginIsolation {
        var isolation = PluginIsolation(policy: isolation)
        if let pluginTimeout {
            let timeout = Duration.milliseconds(Int((pluginTimeout * 1000).rounded()))
            isolation.callTimeout = timeout
            isolation.openTimeout = timeout
        }
        return isolation
    }

    /// A host that has read the manifests of the search path and applied the policy (no
    /// library is opened). With `reportingWarnings` (the default; the `plugins` commands
    /// report them themselves) each overlap between trusted plugins and each plugin library
    /// without a manifest is printed once as a `warning:` line on standard error.
    public func makeHost(reportingWarnings: Bool = true) -> PluginHost {
        let host = PluginHost(searchPath: searchPath, policy: policy, isolation: pluginIsolation)
        if reportingWarnings && !Self.warningsReported.exchange(true, ordering: .relaxed) {
            for warning in host.warnings where warning.kind == .trustedOverlap || warning.kind == .manifestMissing {
                Diagnostics.printWarning("\(warning)")
            }
        }
        return host
    }

    /// Set once the warnings were printed: a command that makes several hosts prints them once.
    private static let warningsReported = Atomic<Bool>(false)

    /// A coders manager with every coder plugin of the search path registered.
    public func makeCodersManager() -> CodersManager {
        makeHost().makeCodersManager()
    }
}

extension PluginIsolation.Policy: ExpressibleByArgument {}

/// A command that uses plugins; ``CommandMain/run(_:)`` reads its `--verbose` flag before running it.
public protocol PluginHostCommand: ParsableCommand {
    var pluginOptions: PluginOptions { get }
}
