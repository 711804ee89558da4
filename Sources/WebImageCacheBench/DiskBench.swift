import ArgumentParser
import CCacheReferences
import DiskCache
import Foundation
import WebImageCore

/// 1,000 writes and reads of 256 KB entries through the disk plugin against plain C
/// write-to-temporary-then-rename and read-whole-file of the same bytes. Reads are measured
/// twice: through the instance that wrote the entries (their checksums are known to it), and
/// through a fresh instance each round (each read hashes the entry's bytes, as in another process).
struct DiskBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disk", abstract: "Writes and reads of 256 KB entries against C write+rename and read.")

    @Option(help: "A folder on the file system to measure; a fresh subfolder is used and removed.")
    var directory = NSTemporaryDirectory()
    @Option(help: "Rounds, each running both sides once.") var rounds = 5
    @Option(help: "Entries per round.") var count = 1000
    @Option(help: "Bytes per entry.") var size = 262_144

    func run() throws {
        let folder = directory + "/webimage-cache-bench-" + UUID().uuidString
        let referenceFolder = folder + "/reference"
        try FileManager.default.createDirectory(atPath: referenceFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let open = { try DiskCachePlugin.backend().open(["directory": folder, "namespace": "plugin"]) }
        let cache = try open()
        let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let keys = (0..<count).map { "https://example.com/images/\($0).jpg" }
        let names = keys.map { DiskCachePlugin.fileName(forKey: $0) }
        // Every round writes new files on both sides: the folders are emptied first (not timed).
        let emptyBoth = {
            try cache.removeAll()
            for name in try FileManager.default.contentsOfDirectory(atPath: referenceFolder) {
                try FileManager.default.removeItem(atPath: referenceFolder + "/" + name)
            }
        }
        try compare("disk: \(count) writes of \(size) bytes", rounds: rounds, prepare: emptyBoth) {
            for key in keys { try cache.store(data, extendedData: nil, forKey: key) }
        } reference: {
            try data.withUnsafeBytes { bytes in
                for name in names {
                    guard cache_reference_write(referenceFolder, name, bytes.baseAddress!, size) == 0 else {
                        throw BenchFailure(description: "reference write failed")
                    }
                }
            }
        }
        var total = 0
        let readReference = {
            for name in names {
                var bytes: UnsafeMutablePointer<UInt8>?
                var length = 0
                guard cache_reference_read(referenceFolder + "/" + name, &bytes, &length) == 0 else {
                    throw BenchFailure(description: "reference read failed")
                }
                total += length
                free(bytes)
            }
        }
        try compare("disk: \(count) reads of \(size) bytes, by the writer", rounds: rounds) {
            for key in keys { total += try cache.entry(forKey: key)?.data.count ?? 0 }
        } reference: {
            try readReference()
        }
        var fresh = cache
        try compare(
            "disk: \(count) reads of \(size) bytes, by a fresh instance", rounds: rounds,
            prepare: { fresh = try open() },
            plugin: {
                for key in keys { total += try fresh.entry(forKey: key)?.data.count ?? 0 }
            },
            reference: { try readReference() })
        guard total == 4 * rounds * count * size else { throw BenchFailure(description: "reads missed") }
    }
}

/// The time of the trim that brings a cache of `entries` files over its count limit down to half.
struct TrimBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trim", abstract: "Trim a cache of 10,000 entries to half its count limit.")

    @Option(help: "A folder on the file system to measure; a fresh subfolder is used and removed.")
    var directory = NSTemporaryDirectory()
    @Option(help: "Entries in the cache.") var entries = 10_000
    @Option(help: "Bytes per entry.") var size = 4096

    func run() throws {
        let folder = directory + "/webimage-cache-bench-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let data = Data(count: size)
        let filler = try DiskCachePlugin.backend().open(["directory": folder])
        for index in 0..<entries { try filler.store(data, extendedData: nil, forKey: "k\(index)") }
        let limited = try DiskCachePlugin.backend().open(["directory": folder, "max-count": String(entries - 1)])
        let time = try milliseconds { try limited.removeExpired() }
        let left = try limited.totals().count
        print("disk: trim of \(entries) entries to \(left) (trim ratio 0.5): \(format(time)) ms")
    }
}
