import ArgumentParser
import Foundation

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
        subcommands: [PluginsCommand.self, InfoCommand.self, ConvertCommand.self, BenchCommand.self])

    /// Parses the arguments, sets up logging and runs the chosen command.
    ///
    /// Failures about the input (``CLIError``, ``ImageCodingError``, ``PluginFault``) print
    /// one `error: ...` line and exit with status 1; argument-syntax errors, help and
    /// explicit exit codes are left to ArgumentParser.
    static func main() {
        do {
            var command = try parseAsRoot()
            let verbose = (command as? any PluginHostCommand)?.pluginOptions.verbose ?? false
            Diagnostics.bootstrapLogging(verbose: verbose)
            try command.run()
        } catch {
            guard let message = CLIError.message(for: error) else { exit(withError: error) }
            Diagnostics.printError(message)
            Foundation.exit(CLIError.failureStatus)
        }
    }
}
