import ArgumentParser
import FoundationEssentials
import WebImageCLISupport
import WebImageCore

/// `webimage fetch URL...`: downloads through the loader plugins with ``ImageDownloader``,
/// writing each body to a folder (through a temporary name renamed when complete, so a
/// failed URL leaves no file).
struct FetchCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download URLs through the loader plugins into a folder.",
        discussion: """
            Identical URLs are fetched once. Each failed URL is one error line on standard error, then \
            a count when there were several; the exit status is 1 when any URL failed.
            """)

    @OptionGroup var pluginOptions: PluginOptions

    @OptionGroup var destinationOptions: DestinationOptions

    @Argument(help: "The URLs to fetch.")
    var urls: [String] = []

    @Option(
        name: .customLong("from"),
        help: ArgumentHelp("Read more URLs, one a line, from a file or - for standard input.", valueName: "file"))
    var listFile: String?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The folder the bodies are written to (created with its parents when missing), each in a new file named after its URL's last path segment (made safe; -2, -3... for a name already there) (default: the current folder).",
            valueName: "dir"))
    var output = "."

    @Option(help: "Most downloads at once (default 6).")
    var parallel = 6

    @OptionGroup var loaderOptions: LoaderOptions

    @Flag(help: "Print one JSON object per URL instead of the progress bar.")
    var json = false

    func validate() throws {
        guard parallel >= 1 else { throw ValidationError("--parallel must be at least 1") }
    }

    func run() throws {
        // One body is allocated and freed per file: keep their pages (LargeBlockMemoryPolicy).
        LargeBlockMemoryPolicy.holdMmapThreshold()
        LargeBlockMemoryPolicy.holdTrimThreshold()
        let list = try URLList.urls(arguments: urls, listFile: listFile)
        guard !list.isEmpty else { throw CLIError("no URL to fetch") }
        let host = pluginOptions.makeHost()
        let loaders: [any ImageLoader] = host.plugins(of: .loader).compactMap {
            try? host.adapter(PluginLoader.self, named: $0.name)
        }
        guard !loaders.isEmpty else {
            throw CLIError("no loader plugin found in \(host.searchPath.directories.joined(separator: ":"))")
        }
        let plan = try FetchPlan(urls: list, folder: try OutputFolder(output))
        let bar =
            !json && Diagnostics.standardErrorIsTerminal
            ? TransferProgressBar(total: plan.items.count, noun: "files") : nil
        let downloader = ImageDownloader(
            loaders: MeteredLoader.wrap(loaders, reportingTo: bar), configuration: downloaderConfiguration())
        let reports = FetchRun(plan: plan, downloader: downloader, bar: bar).run()
        if json {
            for report in reports { try FetchReport.printLine(report) }
        }
        let failed = reports.filter { $0.error != nil }
        for report in failed { URLFailures.print(url: report.url, reason: report.error ?? "") }
        try URLFailures.finish(failed: failed.count, of: reports.count, noun: "URLs")
    }

    private func downloaderConfiguration() -> ImageDownloaderConfiguration {
        var configuration = ImageDownloaderConfiguration()
        configuration.maxConcurrentDownloads = parallel
        loaderOptions.apply(to: &configuration)
        configuration.acceptableStatusCodes = Set(200..<300)
        configuration.destinationPolicy = destinationOptions.policy
        return configuration
    }
}
