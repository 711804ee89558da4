import ArgumentParser
import WebImageCore

/// Options every command takes: where to look for plugins, how to isolate them, and whether to log.
public struct PluginOptions: ParsableArguments {
    @Option(
        name: .customLong("plugin-path"),
        help: ArgumentHelp(
            "A folder of plugin manifests and libraries, searched before WEBIMAGE_PLUGIN_PATH (repeatable).",
            valueName: "dir"))
    public var pluginPaths: [String] = []

    @Option(
        help: ArgumentHelp(
            "Which coder plugins run in a worker process: none, untrusted (those outside the install folder), or all.",
            valueName: "policy"))
    public var isolation: PluginIsolation.Policy = .untrusted

    @Option(
        help: ArgumentHelp(
            "Seconds one call into an isolated plugin may take before its worker is killed.", valueName: "seconds"))
    public var pluginTimeout: Double = 30

    @Flag(help: "Print plugin and coder warnings to standard error.")
    public var verbose = false

    public init() {}

    public func validate() throws {
        guard pluginTimeout > 0, pluginTimeout <= 86_400 else {
            throw ValidationError("--plugin-timeout must be between 0 and 86400 seconds, not \(pluginTimeout)")
        }
    }

    /// The standard search path with the `--plugin-path` folders first.
    public var searchPath: PluginSearchPath {
        .standard(hostDirectories: pluginPaths)
    }

    /// The isolation the options ask for.
    public var pluginIsolation: PluginIsolation {
        PluginIsolation(policy: isolation, callTimeout: .milliseconds(Int((pluginTimeout * 1000).rounded())))
    }

    /// A host that has read the manifests of the search path (no library is opened).
    public func makeHost() -> PluginHost {
        PluginHost(searchPath: searchPath, isolation: pluginIsolation)
    }

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
