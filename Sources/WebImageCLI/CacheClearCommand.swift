import ArgumentParser
import WebImageCLISupport
import WebImageCore

/// `webimage cache clear`: removes every entry of the namespace.
struct CacheClearCommand: CacheSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Remove every entry of the namespace.")

    @OptionGroup var cache: CacheOptions

    func run() throws {
        let store = try cache.open()
        try cacheCall("clear") { () throws(CacheError) in try store.removeAll() }
        if cache.json { return try JSONOutput.print(["entries": 0]) }
        print("cleared")
    }
}
