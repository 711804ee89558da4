import ArgumentParser
import FoundationEssentials
import WebImageCLISupport
import WebImageCore

/// `webimage cache list`: every entry with its key, size, age and name (a file name for disk),
/// under a header line.
struct CacheListCommand: CacheSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Every entry: its key ('-' when unknown), size in bytes, age in seconds and file name.")

    @OptionGroup var cache: CacheOptions

    struct Item: Encodable {
        /// The cache key; nil (absent from the JSON) when the backend does not know it.
        let key: String?
        let name: String
        let size: UInt64
        /// Seconds since the last modification.
        let age: Int64

        /// By key, entries without one last, then by name.
        static func precedes(_ first: Item, _ second: Item) -> Bool {
            switch (first.key, second.key) {
            case (let firstKey?, let secondKey?) where firstKey != secondKey: firstKey < secondKey
            case (_?, nil): true
            case (nil, _?): false
            default: first.name < second.name
            }
        }
    }

    func run() throws {
        let store = try cache.open()
        let now = Int64(Date().timeIntervalSince1970)
        let items = try cacheCall("list") { () throws(CacheError) in try store.items() }
            .map { Item(key: $0.key, name: $0.name, size: $0.size, age: max(0, now - $0.modificationTime)) }
            .sorted(by: Item.precedes)
        if cache.json { return try JSONOutput.print(items) }
        let header = ["KEY", "BYTES", "AGE (s)", "NAME"]
        let rows: [[String]] = items.map { [$0.key ?? "-", String($0.size), String($0.age), $0.name] }
        for line in TextLayout.columns([header] + rows, rightAligned: [1, 2]) { print(line) }
    }
}
