import ArgumentParser
import WebImageCLISupport

/// `webimage-bench`: the toolkit's benchmarks, kept out of the shipping `webimage`.
///
/// - `decode`: `webimage bench decode` plus the plain C reference decoders
///   (``ReferenceDecoder``), so that `webimage` links no C image library; `webimage bench
///   decode --reference` runs this executable from its own folder with the same arguments.
/// - `manager`: the image manager against fetch + decode + store by hand (docs/performance.md).
/// - `isolation`: what running a coder in a worker process costs.
@main
struct WebImageBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage-bench",
        abstract:
            "The toolkit's benchmarks: decodes against the plain C libraries, the image manager, isolated plugins.",
        subcommands: [ReferenceDecodeCommand.self, BenchManagerCommand.self, BenchIsolationCommand.self])

    /// Usage errors begin `error: ` like the tool's own (ArgumentParser's default is `Error: `).
    static var _errorPrefix: String { "error: " }

    static func main() {
        CommandMain.run(Self.self)
    }
}
