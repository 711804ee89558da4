import ArgumentParser
import WebImageCLISupport

/// `webimage plugins`: the plugin subcommands.
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List, verify and inspect plugins.",
        subcommands: [
            PluginsListCommand.self, PluginsVerifyCommand.self, PluginsInspectCommand.self, PluginsConformCommand.self,
        ])
}
