import FoundationEssentials
import WebImageCore

/// The result of `bench decode`, printed as JSON or as aligned text.
///
/// Times are milliseconds per decode, `width` and `height` the plugin's output size. The
/// reference fields are present only after a reference run.
struct BenchDecodeReport: Encodable {
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

    /// The report of `outcome`, times rounded to nanoseconds and ratios to 4 decimals.
    init(info: ImageInfo, iterations: Int, outcome: DecodeBenchmark.Outcome) {
        format = info.format
        width = outcome.width
        height = outcome.height
        self.iterations = iterations
        medianMs = Self.rounded(outcome.plugin.median, places: 6)
        minMs = Self.rounded(outcome.plugin.minimum, places: 6)
        if let (_, timing) = outcome.reference {
            referenceMedianMs = Self.rounded(timing.median, places: 6)
            referenceMinMs = Self.rounded(timing.minimum, places: 6)
            ratioMin = Self.rounded(Timing.ratio(outcome.plugin.minimum, to: timing.minimum), places: 4)
            ratioMedian = Self.rounded(Timing.ratio(outcome.plugin.median, to: timing.median), places: 4)
        }
    }

    /// The text form: one `label: value` line per field.
    /// - Parameters:
    ///   - file: the path as given on the command line.
    ///   - interleaved: whether a reference side was asked for (the rounds then alternate sides).
    func textLines(file: String, info: ImageInfo, outcome: DecodeBenchmark.Outcome, interleaved: Bool) -> [String] {
        var rows: [(label: String, value: String)] = [
            ("file", file),
            ("image", "\(info.format) \(info.width)x\(info.height), decoded to \(width)x\(height)"),
            ("iterations", "\(iterations) per side after 1 warm-up\(interleaved ? ", interleaved" : "")"),
            ("plugin", Self.times(median: medianMs, minimum: minMs)),
        ]
        if let (decoder, timing) = outcome.reference {
            rows.append(("reference", Self.times(median: timing.median, minimum: timing.minimum)))
            rows.append(("reference does", "\(decoder.summary) to \(decoder.width)x\(decoder.height) RGBA8"))
            rows.append(
                (
                    "plugin/reference",
                    String(printf: "median %.2fx, min %.2fx", ratioMedian ?? 0, ratioMin ?? 0)
                ))
        } else if let reason = outcome.referenceUnavailable {
            rows.append(("reference", "none: \(reason)"))
        }
        #if DEBUG
            rows.append(("build", "debug: Swift code runs unoptimised; build with -c release for representative times"))
        #endif
        return TextLayout.fields(rows)
    }

    /// `value` rounded to `places` decimals (milliseconds to 6 places is nanoseconds), so
    /// the JSON holds no digits below the clock's resolution.
    private static func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    private static func times(median: Double, minimum: Double) -> String {
        String(printf: "median %.4f ms, min %.4f ms", median, minimum)
    }
}
