import ArgumentParser
import FoundationEssentials
import WebImageCLISupport
import WebImageCore

/// `webimage bench transform FILE --transform SPEC`: times a transformer pipeline on the
/// decoded image, already in memory (decoding is not timed), in-process.
struct BenchTransformCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "transform",
        abstract: "Time transformers (--transform, as convert takes them) on a decoded image.")

    @OptionGroup var pluginOptions: PluginOptions

    @Argument(help: "The image file.")
    var file: String

    @Option(
        name: .customLong("transform"),
        help: ArgumentHelp("A transformer spec as convert takes it (repeatable, in order).", valueName: "spec"))
    var transforms: [String] = []

    @Option(help: ArgumentHelp("Timed runs, after one warm-up.", valueName: "n"))
    var iterations = 20

    @Flag(help: "Decode to RGBA16 (only sources deeper than 8 bits give 16-bit pixels).")
    var sixteenBit = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// The JSON document; times are milliseconds per run of the whole pipeline.
    struct Report: Encodable {
        let format: String
        let pixelFormat: String
        let width: Int
        let height: Int
        let outputWidth: Int
        let outputHeight: Int
        let transformerKey: String
        let iterations: Int
        let medianMs: Double
        let minMs: Double

        enum CodingKeys: String, CodingKey {
            case format, width, height, iterations
            case pixelFormat = "pixel_format"
            case outputWidth = "output_width"
            case outputHeight = "output_height"
            case transformerKey = "transformer_key"
            case medianMs = "median_ms"
            case minMs = "min_ms"
        }
    }

    func run() throws {
        guard iterations >= 1 else {
            throw CLIError("--iterations must be at least 1, not \(iterations)")
        }
        guard !transforms.isEmpty else {
            throw CLIError("bench transform needs at least one --transform SPEC")
        }
        let host = pluginOptions.makeHost()
        let pipeline = try TransformArgument.pipeline(transforms, host: host)
        let bytes = try InputFile.read(file)
        let manager = host.makeCodersManager()
        let image = try manager.decode(bytes, options: DecodeOptions(pixelFormat: sixteenBit ? .rgba16 : .rgba8))
        let output = try transform(image.pixels, with: pipeline)
        var timing = Timing()
        for _ in 0..<iterations { try timing.measure { _ = try transform(image.pixels, with: pipeline) } }
        let report = Report(
            format: image.format, pixelFormat: image.pixels.format.description, width: image.width,
            height: image.height, outputWidth: output.width, outputHeight: output.height,
            transformerKey: pipeline.transformerKey, iterations: iterations,
            medianMs: (timing.median * 1e6).rounded() / 1e6, minMs: (timing.minimum * 1e6).rounded() / 1e6)
        if json {
            try JSONOutput.print(report)
            return
        }
        var rows: [(label: String, value: String)] = [
            ("file", file),
            ("image", "\(image.format) \(image.width)x\(image.height) \(report.pixelFormat)"),
            ("transform", "\(report.transformerKey) to \(output.width)x\(output.height)"),
            ("iterations", "\(iterations) after 1 warm-up"),
            ("time", String(printf: "median %.4f ms, min %.4f ms", report.medianMs, report.minMs)),
        ]
        #if DEBUG
            rows.append(("build", "debug: Swift code runs unoptimised; build with -c release for representative times"))
        #endif
        for line in TextLayout.fields(rows) { print(line) }
    }

    private func transform(_ pixels: PixelBuffer, with pipeline: TransformerPipeline) throws -> PixelBuffer {
        do {
            return try pipeline.transform(pixels)
        } catch {
            throw CLIError("cannot transform '\(file)' with \(pipeline.transformerKey): \(error.message)")
        }
    }
}
