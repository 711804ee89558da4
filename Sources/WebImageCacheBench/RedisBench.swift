import ArgumentParser
import CCacheReferences
import Foundation
import RedisCache
import WebImageCore

/// 1,000 sets and gets of 100 KB values through the redis plugin against raw hiredis calls.
struct RedisBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redis", abstract: "Sets and gets of 100 KB values against raw hiredis SET and GET.")

    @Option(help: "The server, redis://127.0.0.1:PORT.") var url: String
    @Option(help: "Rounds, each running both sides once.") var rounds = 5
    @Option(help: "Values per round.") var count = 1000
    @Option(help: "Bytes per value.") var size = 102_400

    func run() throws {
        guard url.hasPrefix("redis://127.0.0.1:"), let port = Int32(url.dropFirst("redis://127.0.0.1:".count)) else {
            throw BenchFailure(description: "--url must be redis://127.0.0.1:PORT")
        }
        let cache = try RedisCachePlugin.backend().open(["url": url, "namespace": "bench", "timeout-ms": "1000"])
        guard let raw = cache_reference_redis_connect("127.0.0.1", port) else {
            throw BenchFailure(description: "cannot connect to \(url)")
        }
        defer { cache_reference_redis_free(raw) }
        let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let keys = (0..<count).map { "https://example.com/images/\($0).jpg" }
        let rawKeys = keys.map { "reference:" + $0 }
        try compare("redis: \(count) sets of \(size) bytes", rounds: rounds) {
            for key in keys { try cache.store(data, extendedData: nil, forKey: key) }
        } reference: {
            try data.withUnsafeBytes { bytes in
                for key in rawKeys where cache_reference_redis_set(raw, key, bytes.baseAddress!, size) != 0 {
                    throw BenchFailure(description: "reference SET failed")
                }
            }
        }
        var total = 0
        try compare("redis: \(count) gets of \(size) bytes", rounds: rounds) {
            for key in keys { total += try cache.entry(forKey: key)?.data.count ?? 0 }
        } reference: {
            for key in rawKeys { total += cache_reference_redis_get(raw, key) }
        }
        guard total == 2 * rounds * count * size else { throw BenchFailure(description: "gets missed") }
        try cache.removeAll()
    }
}
