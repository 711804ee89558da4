import ArgumentParser
import Foundation
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
            "The folder the bodies are written to, each in a new file named after its URL's last path segment (made safe; -2, -3... for a name already there) (default: the current folder).",
            valueName: "dir"))
    var output = "."

    @Option(help: "Most downloads at once (default 6).")
    var parallel = 6

    @Option(help: "Most connections open at once to one host (default 6).")
    var maxHostConnections = 6

    @Flag(help: "Speak HTTP/1.1 only.")
    var http1 = false

    @Flag(help: "Allow HTTP/2 over TLS (the default).")
    var http2 = false

    @Option(
        name: .customLong("header"),
        help: ArgumentHelp("A request header 'Name: value' (repeatable).", valueName: "header"))
    var headers: [String] = []

    @Option(help: ArgumentHelp("Credentials for basic or digest authentication.", valueName: "user:password"))
    var user: String?

    @Flag(help: "Accept TLS certificates that do not verify.")
    var insecure = false

    @Option(
        help: ArgumentHelp(
            "Seconds over which a transfer must average 1024 bytes a second, so also the most without a byte (default 15).",
            valueName: "seconds"))
    var timeout: Double = 15

    @OptionGroup var transferTime: TransferTimeOptions

    @Option(help: "Retries of transient failures (default 0).")
    var retries = 0

    @Flag(help: "Print one JSON object per URL instead of the progress bar.")
    var json = false

    func validate() throws {
        guard parallel >= 1 else { throw ValidationError("--parallel must be at least 1") }
        guard (1...1000).contains(maxHostConnections) else {
            throw ValidationError("--max-host-connections must be from 1 to 1000")
        }
        guard !(http1 && http2) else { throw ValidationError("--http1 and --http2 exclude each other") }
        guard timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be between 0 and 86400 seconds")
        }
        guard retries >= 0 else { throw ValidationError("--retries must not be negative") }
        for header in headers where !header.contains(":") {
            throw ValidationError("--header '\(header)' is not 'Name: value'")
        }
        if let user, !user.contains(":") { throw ValidationError("--user must be user:password") }
    }

    func run() throws {
        let list = try FetchPlan.urls(arguments: urls, listFile: listFile)
        guard !list.isEmpty else { throw CLIError("no URL to fetch") }
        let host = pluginOptions.makeHost()
        let loaders: [any ImageLoader] = host.plugins(of: .loader).compactMap {
            try? host.adapter(PluginLoader.self, named: $0.name)
        }
        guard !loaders.isEmpty else {
            throw CLIError("no loader plugin found in \(host.searchPath.directories.joined(separator: ":"))")
        }
        let plan = try FetchPlan(urls: list, folder: try OutputFolder(output))
        let downloader = ImageDownloader(loaders: loaders, configuration: downloaderConfiguration())
        let reports = FetchRun(plan: plan, downloader: downloader, request: downloadRequest).run(
            showProgress: !json && Diagnostics.standardErrorIsTerminal)
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
        configuration.maxConnectionsPerHost = UInt32(maxHostConnections)
        configuration.idleTimeout = .milliseconds(Int64(timeout * 1000))
        configuration.retry = RetryPolicy(maxRetries: retries)
        transferTime.apply(to: &configuration)
        configuration.acceptableStatusCodes = Set(200..<300)
        configuration.destinationPolicy = destinationOptions.policy
        return configuration
    }

    private func downloadRequest(_ url: String) -> DownloadRequest {
        var request = DownloadRequest(url: url)
        for header in headers {
            let parts = header.split(separator: ":", maxSplits: 1)
            request.headers[String(parts[0]).trimmingCharacters(in: .whitespaces)] =
                parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : ""
        }
        if let user {
            let parts = user.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            request.credential = .init(user: String(parts[0]), password: parts.count > 1 ? String(parts[1]) : "")
        }
        request.options = http1 ? [] : [.allowHTTP2]
        if insecure { request.options.insert(.allowInvalidCertificates) }
        return request
    }
}
