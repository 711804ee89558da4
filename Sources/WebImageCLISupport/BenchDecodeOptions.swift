import ArgumentParser

/// The arguments of `bench decode`, the same for `webimage bench decode` and
/// `webimage-bench decode`.
public struct BenchDecodeOptions: ParsableArguments {
    @OptionGroup public var pluginOptions: PluginOptions

    @Argument(help: "The image file.")
    public var file: String

    @Option(help: ArgumentHelp("Timed decodes per side, after one warm-up.", valueName: "n"))
    public var iterations = 20

    @Option(help: ArgumentHelp("Decode to a thumbnail fitting this box, such as 128x128.", valueName: "WxH"))
    public var thumbnail: String?

    @Flag(
        help:
            "Also time the plain C library (libpng, libjpeg-turbo, giflib, libwebp, libheif), interleaved with the plugin."
    )
    public var reference = false

    @Option(help: "The libpng API of the PNG reference: low-level (the plugin's transforms) or simplified (png_image).")
    public var referenceAPI: ReferenceAPI = .lowLevel

    @Flag(help: "Decode every frame of an animation (composited canvases), not just the first.")
    public var allFrames = false

    @Flag(help: "Print JSON instead of text.")
    public var json = false

    public init() {}

    /// These options as command-line arguments that parse back to the same values: every
    /// option spelled out (defaults included), the file last after `--` so a name starting
    /// with `-` stays a file.
    public var commandLineArguments: [String] {
        var arguments = pluginOptions.pluginPaths.flatMap { ["--plugin-path", $0] }
        arguments += ["--isolation", pluginOptions.isolation.rawValue]
        if let timeout = pluginOptions.pluginTimeout { arguments += ["--plugin-timeout", String(timeout)] }
        if pluginOptions.verbose { arguments.append("--verbose") }
        arguments += ["--iterations", String(iterations)]
        if let thumbnail { arguments += ["--thumbnail", thumbnail] }
        if reference { arguments.append("--reference") }
        arguments += ["--reference-api", referenceAPI.rawValue]
        if allFrames { arguments.append("--all-frames") }
        if json { arguments.append("--json") }
        return arguments + ["--", file]
    }
}
