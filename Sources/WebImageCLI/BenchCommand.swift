import ArgumentParser
import WebImageCLISupport

/// `webimage bench`: the benchmark subcommands.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time coder plugins, transformers, isolated plugins and the image manager.",
        subcommands: [
            BenchDecodeCommand.self, BenchTransformCommand.self, BenchManagerCommand.self, BenchIsolationCommand.self,
        ])
}
