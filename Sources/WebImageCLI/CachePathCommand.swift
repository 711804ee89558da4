import ArgumentParser
import WebImageCLISupport
import WebImageCore

/// `webimage cache path KEY`: the file of a key's entry (where it is or would be).
struct CachePathCommand: CacheSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "path", abstract: "The file of a key's entry, where it is or would be.")

    @OptionGroup var cache: CacheOptions

    @Argument(help: "The cache key.")
    var key: String

    func run() throws {
        let store = try cache.open()
        guard let path = store.path(forKey: key) else {
            throw CLIError("the \(cache.backend) cache keeps no files")
        }
        if cache.json { return try JSONOutput.print(["key": key, "path": path]) }
        print(path)
    }
}
