// A child process for the disk cache's crash and two-process tests:
//
//   DiskCacheWriter write DIRECTORY MAX-SIZE SEED ITERATIONS
//       writes ITERATIONS entries of keys k0...k199 in the order SEED gives (forever when 0);
//       prints "stored" once its first entry is in the cache
//   DiskCacheWriter verify DIRECTORY MAX-SIZE
//       reads every key and prints "present=N bad=N bytes=N count=N"
//
// Each value is a function of its key and a round number stored in its first 8 bytes, so
// any entry can be checked without knowing which write produced it.
import DiskCache
import Foundation
import WebImageCore

let keyCount = 200

/// A deterministic generator (SplitMix64) so runs are reproducible from their seed.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// The value of `key` in `round`: the round (8 bytes, little endian), then bytes from a generator seeded by both.
func value(key: Int, round: UInt64) -> Data {
    var generator = SplitMix64(state: UInt64(key) &* 1_000_003 &+ round)
    let length = 8 + Int(generator.next() % 20_000)
    var bytes = [UInt8](repeating: 0, count: length)
    withUnsafeBytes(of: round.littleEndian) { for (index, byte) in $0.enumerated() { bytes[index] = byte } }
    for index in 8..<length { bytes[index] = UInt8(truncatingIfNeeded: generator.next()) }
    return Data(bytes)
}

func extendedData(key: Int, round: UInt64) -> Data { Data("k\(key)-r\(round)".utf8) }

func open(directory: String, maxSize: String) throws -> PluginDiskCache {
    try DiskCachePlugin.backend().open(["directory": directory, "namespace": "shared", "max-size": maxSize])
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else { fail("usage: write DIR MAX-SIZE SEED ITERATIONS | verify DIR MAX-SIZE") }
do {
    let cache = try open(directory: arguments[2], maxSize: arguments[3])
    switch arguments[1] {
    case "write":
        guard arguments.count == 6, let seed = UInt64(arguments[4]), let iterations = Int(arguments[5]) else {
            fail("write DIR MAX-SIZE SEED ITERATIONS")
        }
        var generator = SplitMix64(state: seed)
        var written = 0
        while iterations == 0 || written < iterations {
            let key = Int(generator.next() % UInt64(keyCount))
            let round = generator.next()
            try cache.store(
                value(key: key, round: round), extendedData: extendedData(key: key, round: round), forKey: "k\(key)")
            written += 1
            if written == 1 { FileHandle.standardOutput.write(Data("stored\n".utf8)) }
        }
    case "verify":
        var present = 0
        var bad = 0
        for key in 0..<keyCount {
            guard let entry = try cache.entry(forKey: "k\(key)") else { continue }
            present += 1
            let round =
                entry.data.count >= 8 ? entry.data.prefix(8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } : 0
            if entry.data != value(key: key, round: UInt64(littleEndian: round))
                || entry.extendedData != extendedData(key: key, round: UInt64(littleEndian: round))
            {
                bad += 1
            }
        }
        let totals = try cache.totals()
        print("present=\(present) bad=\(bad) bytes=\(totals.bytes) count=\(totals.count)")
    default:
        fail("unknown mode \(arguments[1])")
    }
} catch {
    fail("\(error)")
}
