import ArgumentParser
import WebImageCore

/// Options every command takes: where to look for plugins, and whether to log.
public struct PluginOptions: ParsableArguments {
    @Option(
        name: .customLong("plugin-path"),
        help: ArgumentHelp(
            "A folder of plugin manifests and libraries, searched before WEBIMAGE_PLUGIN_PATH (repeatable).",
            valueName: "dir"))
    public var pluginPaths: [String] = []

    @Flag(help: "Print plugin and coder warnings to standard error.")
    public var verbose = false

    public init() {}

    /// The standard search path with the `--plugin-path` folders first.
    public var searchPath: PluginSearchPath {
        .standard(hostDirectories: pluginPaths)
    }

    /// A host that has read the manifests of the search path (no library is opened).
    public func makeHost() -> PluginHost {
        PluginHost(searchPath: searchPath)
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
