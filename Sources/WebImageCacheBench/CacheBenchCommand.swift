import ArgumentParser
import Foundation

/// `webimage-cache-bench`: the cache plugins against plain baselines, interleaved in one run
/// (docs/performance.md). Every figure is the minimum over the rounds.
@main
struct CacheBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage-cache-bench",
        abstract: "Benchmark the memory, disk and redis cache plugins against plain baselines in the same run.",
        subcommands: [MemoryBench.self, DiskBench.self, TrimBench.self, RedisBench.self])
}

/// Runs `plugin` and `reference` alternately `rounds` times (each after `prepare`, which is not
/// timed) and prints their minimum times and ratio.
func compare(
    _ title: String, rounds: Int, prepare: () throws -> Void = {}, plugin: () throws -> Void,
    reference: () throws -> Void
) rethrows {
    var pluginBest = Double.infinity
    var referenceBest = Double.infinity
    for _ in 0..<rounds {
        try prepare()
        pluginBest = min(pluginBest, try milliseconds(plugin))
        referenceBest = min(referenceBest, try milliseconds(reference))
    }
    print(
        "\(title): plugin \(format(pluginBest)) ms, reference \(format(referenceBest)) ms, plugin/reference \(String(format: "%.2f", pluginBest / referenceBest))"
    )
}

/// Milliseconds `body` takes.
func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

func format(_ value: Double) -> String { String(format: "%.3f", value) }

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
}
