import ArgumentParser
import WebImageCore

/// Options every command takes: where to look for plugins, and whether to log.
struct PluginOptions: ParsableArguments {
    @Option(
        name: .customLong("plugin-path"),
        help: ArgumentHelp(
            "A folder of plugin manifests and libraries, searched before WEBIMAGE_PLUGIN_PATH (repeatable).",
            valueName: "dir"))
    var pluginPaths: [String] = []

    @Flag(help: "Print plugin and coder warnings to standard error.")
    var verbose = false

    /// The standard search path with the `--plugin-path` folders first.
    var searchPath: PluginSearchPath {
        .standard(hostDirectories: pluginPaths)
    }

    /// A host that has read the manifests of the search path (no library is opened).
    func makeHost() -> PluginHost {
        PluginHost(searchPath: searchPath)
    }

    /// A coders manager with every coder plugin of the search path registered.
    func makeCodersManager() -> CodersManager {
        makeHost().makeCodersManager()
    }
}

/// A command that uses plugins; ``WebImageCommand`` reads its `--verbose` flag before running it.
protocol PluginHostCommand: ParsableCommand {
    var pluginOptions: PluginOptions { get }
}
