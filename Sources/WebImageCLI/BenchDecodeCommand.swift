import ArgumentParser
import WebImageCLISupport

/// `webimage bench decode FILE`: times in-process decodes of a file already in memory
/// through the coder plugin (`CodersManager.decode(_:options:)`, the path apps use).
///
/// With `--reference` the plain C library decoding the same bytes is timed too,
/// interleaved with the plugin: `webimage` links no C image library, so the command is
/// then run by `webimage-bench` from the same folder, with the same arguments, output and
/// exit status (``SiblingExecutable/referenceBenchmark``).
struct BenchDecodeCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Time decoding a file through its plugin, optionally against the plain C library.")

    @OptionGroup var options: BenchDecodeOptions

    var pluginOptions: PluginOptions { options.pluginOptions }

    func run() throws {
        if options.reference {
            try SiblingExecutable.referenceBenchmark.replaceProcess(
                arguments: ["decode"] + options.commandLineArguments)
        }
        try options.run(makeReference: nil)
    }
}
