import ArgumentParser
import FoundationEssentials
import WebImageCLISupport
import WebImageCore

/// `webimage cache info`: the backend, its folder, entries, bytes and limits.
struct CacheInfoCommand: CacheSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "The backend, folder (disk), entries, bytes and limits of a cache.")

    @OptionGroup var cache: CacheOptions

    /// The JSON document; a limit of 0 means none.
    struct Report: Encodable {
        let backend: String
        /// The folder of the entries' files; nil (absent from the JSON) for a backend without files.
        let folder: String?
        let entries: UInt64
        let bytes: UInt64
        let maxSize: UInt64
        let maxCount: UInt64
        let maxAge: UInt64

        enum CodingKeys: String, CodingKey {
            case backend, folder, entries, bytes
            case maxSize = "max_size"
            case maxCount = "max_count"
            case maxAge = "max_age"
        }
    }

    func run() throws {
        let store = try cache.open()
        let totals = try cacheCall("info") { () throws(CacheError) in try store.totals() }
        // Every entry's file lies in the cache folder: the folder of any key's path.
        let folder = store.path(forKey: "key").map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
        let report = Report(
            backend: cache.backend, folder: folder, entries: totals.count, bytes: totals.bytes,
            maxSize: totals.byteLimit,
            maxCount: totals.countLimit, maxAge: totals.ageLimitSeconds)
        if cache.json { return try JSONOutput.print(report) }
        func limit(_ value: UInt64, _ unit: String) -> String { value == 0 ? "none" : "\(value)\(unit)" }
        print("backend: \(report.backend)")
        if let folder { print("folder: \(folder)") }
        print("entries: \(report.entries)")
        print("bytes: \(report.bytes)")
        print("max-size: \(limit(report.maxSize, " bytes"))")
        print("max-count: \(limit(report.maxCount, ""))")
        print("max-age: \(limit(report.maxAge, " s"))")
    }
}
