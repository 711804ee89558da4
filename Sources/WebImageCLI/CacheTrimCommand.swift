import ArgumentParser
import WebImageCLISupport
import WebImageCore

/// `webimage cache trim`: removes expired entries, then trims to the limits when over them.
struct CacheTrimCommand: CacheSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "trim", abstract: "Remove expired entries, then trim to the size and count limits.")

    @OptionGroup var cache: CacheOptions

    func run() throws {
        let store = try cache.open()
        let totals = try cacheCall("trim") { () throws(CacheError) in
            try store.removeExpired()
            return try store.totals()
        }
        if cache.json { return try JSONOutput.print(["entries": totals.count, "bytes": totals.bytes]) }
        print("\(totals.count) entries, \(totals.bytes) bytes")
    }
}
