import ArgumentParser
import MemoryCache
import WebImageCore

/// Nuke's memory cache workload: 100,000 lookups over 2,000 keys, through the memory plugin's
/// C table and the host adapter, against a Swift dictionary behind a mutex.
struct MemoryBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "memory", abstract: "100,000 lookups over 2,000 keys.")

    @Option(help: "Rounds, each running both sides once.") var rounds = 15
    @Option(help: "lru or clock.") var policy = "lru"

    final class Image: Sendable {
        let bytes: Int
        init(bytes: Int) { self.bytes = bytes }
    }

    func run() throws {
        let keys = (0..<2000).map { "https://example.com/images/\($0).jpg" }
        let cache = try MemoryCachePlugin.backend().make(["max-cost": "0", "policy": policy])
        let reference = TrackedMutex<[String: Image]>([:])
        for key in keys {
            let image = Image(bytes: 1000)
            try cache.setValue(image, forKey: key, cost: 1000)
            reference.withLock { $0[key] = image }
        }
        var found = 0
        try compare("memory \(policy): 100,000 lookups over 2,000 keys", rounds: rounds) {
            for index in 0..<100_000 where cache.value(forKey: keys[index % 2000]) is Image { found += 1 }
        } reference: {
            for index in 0..<100_000 where reference.withLock({ $0[keys[index % 2000]] }) != nil { found += 1 }
        }
        guard found == 2 * rounds * 100_000 else { throw BenchFailure(description: "lookups missed") }
    }
}
