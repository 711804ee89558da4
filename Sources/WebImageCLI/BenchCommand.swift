import ArgumentParser
import WebImageCLISupport

/// `webimage bench`: timing a user's own images through the plugins (decode, transform); the
/// toolkit's benchmarks are `webimage-bench`'s.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time decoding and transforming your images through the plugins.",
        discussion: """
            The toolkit's own benchmarks (the image manager, isolated plugins, the C reference
            decoders) are in webimage-bench.
            """,
        subcommands: [BenchDecodeCommand.self, BenchTransformCommand.self])
}
