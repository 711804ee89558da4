import ArgumentParser
import Foundation
import WebImageCLISupport
import WebImageCore

/// `webimage-bench manager`: the image manager's benchmarks of docs/performance.md.
struct BenchManagerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manager",
        abstract: "Time the image manager: memory hits, coalescing, thumbnails of many downloads.",
        subcommands: [
            BenchManagerMemoryHitCommand.self, BenchManagerCoalesceCommand.self, BenchManagerPipelineCommand.self,
        ])
}

/// Seconds of a duration, as a Double.
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
