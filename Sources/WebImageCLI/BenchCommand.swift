import ArgumentParser
import WebImageCLISupport

/// `webimage bench`: the benchmark subcommands.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time coder plugins in-process.",
        subcommands: [BenchDecodeCommand.self, BenchTransformCommand.self, BenchIsolationCommand.self])
}
