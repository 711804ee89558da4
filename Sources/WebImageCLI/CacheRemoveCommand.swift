import ArgumentParser
import WebImageCLISupport
import WebImageCore

/// `webimage cache remove KEY`.
struct CacheRemoveCommand: CacheSubcommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a key's entry.")

    @OptionGroup var cache: CacheOptions

    @Argument(help: "The cache key.")
    var key: String

    func run() throws {
        let store = try cache.open()
        try cacheCall("remove") { () throws(CacheError) in try store.remove(key) }
        if cache.json { return try JSONOutput.print(["removed": key]) }
        print("removed \(key)")
    }
}
