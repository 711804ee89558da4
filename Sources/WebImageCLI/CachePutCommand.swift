import ArgumentParser
import FoundationEssentials
import WebImageCLISupport
import WebImageCore

/// `webimage cache put KEY FILE`: stores a file's bytes under a key.
struct CachePutCommand: CacheSubcommand {
    static let configuration = CommandConfiguration(commandName: "put", abstract: "Store a file's bytes under a key.")

    @OptionGroup var cache: CacheOptions

    @Argument(help: "The cache key.")
    var key: String

    @Argument(help: "The file whose bytes are stored.")
    var file: String

    func run() throws {
        let bytes = Data(try InputFile.read(file))
        let store = try cache.open()
        try cacheCall("put") { () throws(CacheError) in try store.store(bytes, extendedData: nil, forKey: key) }
        if cache.json { return try JSONOutput.print(["key": key, "bytes": String(bytes.count)]) }
        print("stored \(bytes.count) bytes for \(key)")
    }
}
