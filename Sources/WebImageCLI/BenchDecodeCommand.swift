import ArgumentParser
import Foundation
import WebImageCore

/// `webimage bench decode FILE`: times in-process decodes of a file already in memory
/// through the coder plugin (``CodersManager/decode(_:options:)``, the path apps use),
/// and with `--reference` the plain C library decoding the same bytes to RGBA8.
///
/// The plugin side includes everything the host does (choosing the coder, the final
/// thumbnail resize, EXIF orientation); the reference side does none of that. For JPEG
/// thumbnails the reference decodes at the DCT scale the plugin picks; for PNG
/// thumbnails it decodes the full image.
struct BenchDecodeCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Time decoding a file through its plugin, optionally against the plain C library.")

    @OptionGroup var pluginOptions: PluginOptions

    @Argument(help: "The image file.")
    var file: String

    @Option(help: ArgumentHelp("Timed decodes per side, after one warm-up.", valueName: "n"))
    var iterations = 20

    @Option(help: ArgumentHelp("Decode to a thumbnail fitting this box, such as 128x128.", valueName: "WxH"))
    var thumbnail: String?

    @Flag(
        help:
            "Also time the plain C library (libpng, libjpeg-turbo, giflib, libwebp, libheif), interleaved with the plugin."
    )
    var reference = false

    @Option(help: "The libpng API of the PNG reference: low-level (the plugin's transforms) or simplified (png_image).")
    var referenceAPI: ReferenceAPI = .lowLevel

    @Flag(help: "Decode every frame of an animation (composited canvases), not just the first.")
    var allFrames = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// The JSON document; times are milliseconds per decode, `width` and `height` the
    /// plugin's output size. The reference fields are present only with a reference run.
    struct Report: Encodable {
        let format: String
        let width: Int
        let height: Int
        let iterations: Int
        let medianMs: Double
        let minMs: Double
        var referenceMedianMs: Double?
        var referenceMinMs: Double?
        var ratioMin: Double?
        var ratioMedian: Double?

        enum CodingKeys: String, CodingKey {
            case format, width, height, iterations
            case medianMs = "median_ms"
            case minMs = "min_ms"
            case referenceMedianMs = "reference_median_ms"
            case referenceMinMs = "reference_min_ms"
            case ratioMin = "ratio_min"
            case ratioMedian = "ratio_median"
        }
    }

    func run() throws {
        guard iterations >= 1 else {
            throw CLIError("--iterations must be at least 1, not \(iterations)")
        }
        let box = try thumbnail.map { try ThumbnailArgument.parse($0) }
        let bytes = try InputFile.read(file)
        let manager = pluginOptions.makeCodersManager()
        let info = try manager.probe(bytes)
        let options = DecodeOptions(thumbnail: box)
        let benchmark = DecodeBenchmark(
            manager: manager, options: options, iterations: iterations, allFrames: allFrames)
        let outcome = try bytes.withUnsafeBytes { raw in
            let storedBox = box.flatMap { ThumbnailPlan.storedBox(for: $0, info: info) }
            let availability =
                reference
                ? ReferenceDecoder.make(
                    for: info, bytes: raw, storedBox: storedBox, api: referenceAPI, allFrames: allFrames) : nil
            return try benchmark.run(raw, reference: availability)
        }
        var report = Report(
            format: info.format, width: outcome.width, height: outcome.height, iterations: iterations,
            medianMs: Self.rounded(outcome.plugin.median, places: 6),
            minMs: Self.rounded(outcome.plugin.minimum, places: 6))
        if let (_, timing) = outcome.reference {
            report.referenceMedianMs = Self.rounded(timing.median, places: 6)
            report.referenceMinMs = Self.rounded(timing.minimum, places: 6)
            report.ratioMin = Self.rounded(Timing.ratio(outcome.plugin.minimum, to: timing.minimum), places: 4)
            report.ratioMedian = Self.rounded(Timing.ratio(outcome.plugin.median, to: timing.median), places: 4)
        }
        if json {
            if let reason = outcome.referenceUnavailable { Diagnostics.printNote("no reference run: \(reason)") }
            try JSONOutput.print(report)
        } else {
            printText(report, info: info, outcome: outcome)
        }
    }

    private func printText(_ report: Report, info: ImageInfo, outcome: DecodeBenchmark.Outcome) {
        var rows: [(label: String, value: String)] = [
            ("file", file),
            ("image", "\(info.format) \(info.width)x\(info.height), decoded to \(report.width)x\(report.height)"),
            ("iterations", "\(iterations) per side after 1 warm-up\(reference ? ", interleaved" : "")"),
            ("plugin", Self.times(median: report.medianMs, minimum: report.minMs)),
        ]
        if let (decoder, timing) = outcome.reference {
            rows.append(("reference", Self.times(median: timing.median, minimum: timing.minimum)))
            rows.append(("reference does", "\(decoder.summary) to \(decoder.width)x\(decoder.height) RGBA8"))
            rows.append(
                (
                    "plugin/reference",
                    String(format: "median %.2fx, min %.2fx", report.ratioMedian ?? 0, report.ratioMin ?? 0)
                ))
        } else if let reason = outcome.referenceUnavailable {
            rows.append(("reference", "none: \(reason)"))
        }
        #if DEBUG
            rows.append(("build", "debug: Swift code runs unoptimised; build with -c release for representative times"))
        #endif
        for line in TextLayout.fields(rows) { print(line) }
    }

    /// `value` rounded to `places` decimals (milliseconds to 6 places is nanoseconds), so
    /// the JSON holds no digits below the clock's resolution.
    private static func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    private static func times(median: Double, minimum: Double) -> String {
        String(format: "median %.4f ms, min %.4f ms", median, minimum)
    }
}
