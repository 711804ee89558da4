import ArgumentParser
import WebImageCore

/// Options every command takes: where to look for plugins, which of them may be opened,
/// and whether to log.
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

    @Flag(help: "Print plugin and coder warnings to standard error.")
    public var verbose = false

    public init() {}

    /// The standard search path with the `--plugin-path` folders first.
    public var searchPath: PluginSearchPath {
        .standard(hostDirectories: pluginPaths)
    }

    /// The allow, deny and override lists of the options joined with the environment's.
    public var policy: PluginPolicy {
        .standard(allowedPlugins: allowedPlugins, deniedPlugins: deniedPlugins, overridesAllowed: overridesAllowed)
    }

    /// A host that has read the manifests of the search path and applied the policy (no
    /// library is opened).
    public func makeHost() -> PluginHost {
        PluginHost(searchPath: searchPath, policy: policy)
    }

    /// A coders manager with every coder plugin of the search path registered.
    public func makeCodersManager() -> CodersManager {
        makeHost().makeCodersManager()
    }
}

/// A command that uses plugins; ``CommandMain/run(_:)`` reads its `--verbose` flag before running it.
public protocol PluginHostCommand: ParsableCommand {
    var pluginOptions: PluginOptions { get }
}
