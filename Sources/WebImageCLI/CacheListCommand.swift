import ArgumentParser
import Foundation
import WebImageCLISupport
import WebImageCore

/// `webimage cache list`: every entry (a file name for disk) with its size and age.
struct CacheListCommand: CacheSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Every entry with its size in bytes and its age in seconds.")

    @OptionGroup var cache: CacheOptions

    struct Item: Encodable {
        let name: String
        let size: UInt64
        /// Seconds since the last modification.
        let age: Int64
    }

    func run() throws {
        let store = try cache.open()
        let now = Int64(Date().timeIntervalSince1970)
        let items = try cacheCall("list") { () throws(CacheError) in try store.items() }
            .sorted { $0.name < $1.name }
            .map { Item(name: $0.name, size: $0.size, age: max(0, now - $0.modificationTime)) }
        if cache.json { return try JSONOutput.print(items) }
        for item in items { print("\(item.name)  \(item.size) bytes  \(item.age) s") }
    }
}
