import ArgumentParser
import WebImageCLISupport

/// `webimage-bench`: the decode benchmark with the plain C libraries as reference.
///
/// It is `webimage bench` plus the reference decoders (``ReferenceDecoder``), kept out of
/// `webimage` so that the shipping tool links no C image library; `webimage bench decode
/// --reference` runs this executable from its own folder with the same arguments.
@main
struct WebImageBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage-bench",
        abstract: "Time coder plugins in-process against the plain C libraries.",
        subcommands: [ReferenceDecodeCommand.self])

    /// Usage errors begin `error: ` like the tool's own (ArgumentParser's default is `Error: `).
    static var _errorPrefix: String { "error: " }

    static func main() {
        CommandMain.run(Self.self)
    }
}
