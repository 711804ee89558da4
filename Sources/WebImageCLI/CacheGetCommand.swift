import ArgumentParser
import FoundationEssentials
import WebImageCLISupport
import WebImageCore

/// `webimage cache get KEY [-o FILE]`: the stored bytes, to a file or standard output.
struct CacheGetCommand: CacheSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Write the bytes stored for a key to a file or standard output.")

    @OptionGroup var cache: CacheOptions

    @Argument(help: "The cache key.")
    var key: String

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Where to write the bytes; default standard output.", valueName: "file")
    )
    var output: String?

    struct Report: Encodable {
        let key: String
        let bytes: Int
        let extendedDataBytes: Int
        let output: String?

        enum CodingKeys: String, CodingKey {
            case key, bytes, output
            case extendedDataBytes = "extended_data_bytes"
        }
    }

    func run() throws {
        let store = try cache.open()
        let entry: DiskCacheEntry
        switch try cacheCall("get", { () throws(CacheError) in try store.lookup(key) }) {
        case .found(let found): entry = found
        case .missing(let reason):
            // A plain miss says only that; a removed corrupt entry says what was wrong with it.
            let why = reason == "not in the cache" ? "" : " (\(reason))"
            throw CLIError("no entry for key '\(key)' in the \(cache.backend) cache\(why)")
        }
        if let output {
            do {
                try entry.data.write(to: URL(fileURLWithPath: output))
            } catch {
                throw CLIError("cannot write \(output): \(CLIError.reason(for: error))")
            }
        } else if !cache.json {
            entry.data.withUnsafeBytes { DescriptorOutputStream(descriptor: 1).write($0) }
        }
        if cache.json {
            try JSONOutput.print(
                Report(
                    key: key, bytes: entry.data.count, extendedDataBytes: entry.extendedData?.count ?? 0, output: output
                ))
        }
    }
}
