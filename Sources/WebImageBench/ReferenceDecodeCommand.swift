import ArgumentParser
import WebImageCLISupport

/// `webimage-bench decode FILE`: `webimage bench decode` with the reference decoders, so
/// `--reference` times the plain C library decoding the same bytes to RGBA8, interleaved
/// with the plugin in one run.
///
/// For JPEG thumbnails the reference decodes at the DCT scale the plugin picks; for PNG
/// thumbnails it decodes the full image.
struct ReferenceDecodeCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Time decoding a file through its plugin, optionally against the plain C library.")

    @OptionGroup var options: BenchDecodeOptions

    var pluginOptions: PluginOptions { options.pluginOptions }

    func run() throws {
        try options.run { info, bytes, storedBox in
            ReferenceDecoder.make(
                for: info, bytes: bytes, storedBox: storedBox, api: options.referenceAPI, allFrames: options.allFrames)
        }
    }
}
