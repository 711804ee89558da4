import ArgumentParser
import WebImageCLISupport
import WebImageCore

/// The `webimage` tool: inspects plugins, describes, converts and benchmarks images
/// through the coder plugins that ``PluginHost`` finds.
@main
struct WebImageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Inspect WebImage plugins; describe, convert and benchmark images through them.",
        discussion: """
            Plugins are searched in every --plugin-path folder, then in each folder of \
            WEBIMAGE_PLUGIN_PATH (colon-separated), then in <executable folder>/../lib/webimage/plugins.
            """,
        version: WebImageVersion.description,
        subcommands: [
            PluginsCommand.self, InfoCommand.self, ConvertCommand.self, BenchCommand.self, CacheCommand.self,
            FetchCommand.self, GetCommand.self, PrefetchCommand.self, SignHandOverCommand.self,
            ServeHandOverCommand.self,
        ])

    /// Usage errors begin `error: ` like the tool's own (ArgumentParser's default is `Error: `).
    static var _errorPrefix: String { "error: " }

    /// Hands `serve` and `sign` over to `webimage-serve` (``ServerHandOver``); parses the
    /// other commands' arguments, sets up logging and runs the chosen command
    /// (``CommandMain/run(_:)``).
    static func main() {
        ServerHandOver.handOverIfServerCommand(Array(CommandLine.arguments.dropFirst()))
        CommandMain.run(Self.self)
    }
}
