import ArgumentParser
import Foundation
import WebImageCLISupport
import WebImageCore

/// `webimage-bench isolation FILE`: what isolation costs. Times the same decode (through
/// `CodersManager.decode`, bytes in memory) with the file's coder in-process and in a worker
/// (`--isolation all`), interleaved round by round in one run, and the start of a worker
/// (spawning `webimage-plugin-worker` and opening the plugin in it).
struct BenchIsolationCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "isolation",
        abstract: "Time a decode in-process against the same decode in a plugin worker, and starting a worker.")

    @OptionGroup var pluginOptions: PluginOptions

    @Argument(help: "The image file.")
    var file: String

    @Option(help: ArgumentHelp("Timed decodes per side, and worker starts, after one warm-up.", valueName: "n"))
    var iterations = 20

    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// The JSON document; times in milliseconds.
    struct Report: Encodable {
        let format: String
        let width: Int
        let height: Int
        let iterations: Int
        let inProcessMinMs: Double
        let inProcessMedianMs: Double
        let isolatedMinMs: Double
        let isolatedMedianMs: Double
        let ratioMin: Double
        let ratioMedian: Double
        let workerStartMinMs: Double
        let workerStartMedianMs: Double

        enum CodingKeys: String, CodingKey {
            case format, width, height, iterations
            case inProcessMinMs = "in_process_min_ms"
            case inProcessMedianMs = "in_process_median_ms"
            case isolatedMinMs = "isolated_min_ms"
            case isolatedMedianMs = "isolated_median_ms"
            case ratioMin = "ratio_min"
            case ratioMedian = "ratio_median"
            case workerStartMinMs = "worker_start_min_ms"
            case workerStartMedianMs = "worker_start_median_ms"
        }
    }

    func run() throws {
        guard iterations >= 1 else { throw CLIError("--iterations must be at least 1, not \(iterations)") }
        let bytes = try InputFile.read(file)
        func host(_ policy: PluginIsolation.Policy) -> PluginHost {
            var isolation = pluginOptions.pluginIsolation
            isolation.policy = policy
            return PluginHost(searchPath: pluginOptions.searchPath, policy: pluginOptions.policy, isolation: isolation)
        }
        let inProcess = host(.none).makeCodersManager()
        let isolated = host(.all).makeCodersManager()
        let info = try inProcess.probe(bytes)
        let warmUp = try isolated.decode(bytes)
        _ = try inProcess.decode(bytes)
        var inProcessTiming = Timing()
        var isolatedTiming = Timing()
        try bytes.withUnsafeBytes { raw in
            for round in 0..<iterations {
                let isolatedFirst = round.isMultiple(of: 2)
                if isolatedFirst { try isolatedTiming.measure { _ = try isolated.decode(raw) } }
                try inProcessTiming.measure { _ = try inProcess.decode(raw) }
                if !isolatedFirst { try isolatedTiming.measure { _ = try isolated.decode(raw) } }
            }
        }
        let coderName = try coderPlugin(for: bytes, in: host(.none))
        _ = try host(.all).isolatedCoder(named: coderName)
        var startTiming = Timing()
        for _ in 0..<iterations {
            let fresh = host(.all)
            try startTiming.measure { _ = try fresh.isolatedCoder(named: coderName) }
        }
        let report = Report(
            format: info.format, width: warmUp.width, height: warmUp.height, iterations: iterations,
            inProcessMinMs: inProcessTiming.minimum, inProcessMedianMs: inProcessTiming.median,
            isolatedMinMs: isolatedTiming.minimum, isolatedMedianMs: isolatedTiming.median,
            ratioMin: Timing.ratio(isolatedTiming.minimum, to: inProcessTiming.minimum),
            ratioMedian: Timing.ratio(isolatedTiming.median, to: inProcessTiming.median),
            workerStartMinMs: startTiming.minimum, workerStartMedianMs: startTiming.median)
        if json {
            try JSONOutput.print(report)
            return
        }
        var rows: [(label: String, value: String)] = [
            ("file", file),
            ("image", "\(info.format) \(info.width)x\(info.height), decoded to \(warmUp.width)x\(warmUp.height)"),
            ("iterations", "\(iterations) per side after 1 warm-up, interleaved"),
            (
                "in-process",
                String(format: "median %.4f ms, min %.4f ms", report.inProcessMedianMs, report.inProcessMinMs)
            ),
            ("isolated", String(format: "median %.4f ms, min %.4f ms", report.isolatedMedianMs, report.isolatedMinMs)),
            ("isolated/in-process", String(format: "median %.3fx, min %.3fx", report.ratioMedian, report.ratioMin)),
            (
                "worker start",
                String(format: "median %.3f ms, min %.3f ms", report.workerStartMedianMs, report.workerStartMinMs)
                    + " (spawn webimage-plugin-worker, open '\(coderName)' in it)"
            ),
        ]
        #if DEBUG
            rows.append(("build", "debug: Swift code runs unoptimised; build with -c release for representative times"))
        #endif
        for line in TextLayout.fields(rows) { print(line) }
    }

    /// The name of the coder plugin that decodes `bytes`: the first plugin, in the order the
    /// coders manager asks them, whose in-process coder accepts the bytes.
    private func coderPlugin(for bytes: [UInt8], in host: PluginHost) throws -> String {
        for plugin in host.plugins(of: .coder) {
            guard let coder = try? host.adapter(PluginCoder.self, named: plugin.name) else { continue }
            if bytes.withUnsafeBytes({ coder.canDecode($0) }) { return plugin.name }
        }
        throw CLIError("no coder plugin decodes \(file)")
    }
}
