import ArgumentParser
import FoundationEssentials
import WebImageCLISupport
import WebImageCore

/// `webimage prefetch URL...`: loads images into the caches ahead of time with the prefetcher.
struct PrefetchCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Load images into the disk cache ahead of time.",
        discussion: """
            A progress bar of images and bytes on a terminal, then a summary line; --json prints a \
            summary with the failures instead. Each URL that failed or was skipped (not a URL) is one \
            error line on standard error, then a count when there were several. The command exits \
            after every store has finished; the exit status is 1 when any URL failed or was skipped. \
            Failed stores to the cache (a full or read-only file system) are counted \
            (store_failures) with one warning. The images are stored on disk only by default: this \
            process's memory cache ends with it (--store-cache-type all keeps them in memory too, \
            up to the memory cache's limit).
            """)

    @OptionGroup var manager: ManagerOptions

    var pluginOptions: PluginOptions { manager.pluginOptions }

    @Argument(help: "The URLs to prefetch.")
    var urls: [String] = []

    @Option(
        name: .customLong("from"),
        help: ArgumentHelp("Read more URLs, one a line, from a file or - for standard input.", valueName: "file"))
    var listFile: String?

    @Option(
        name: .customLong("store-cache-type"),
        help: ArgumentHelp("Where each image is stored: none, memory, disk, all (default disk).", valueName: "type"))
    var storeCacheType = "disk"

    @Option(help: "Most images at once (default 3).")
    var parallel = 3

    @Flag(help: "Print a JSON summary instead of the progress bar.")
    var json = false

    /// The JSON summary.
    struct Summary: Encodable {
        let total: Int
        /// URLs that ended: prefetched, failed or skipped.
        let finished: Int
        let skipped: Int
        let failed: Int
        /// Stores to the cache that failed (``PipelineCounters/storeFailures``).
        let storeFailures: Int
        /// Body bytes received from the network (``PipelineCounters/downloadedBytes``); 0
        /// when every image came from the caches.
        let bytesDownloaded: Int
        let ms: Double
        /// Each URL that failed or was skipped, in list order.
        let failures: [Failure]

        enum CodingKeys: String, CodingKey {
            case total, finished, skipped, failed, ms, failures
            case storeFailures = "store_failures"
            case bytesDownloaded = "bytes_downloaded"
        }
    }

    /// A URL that failed or was skipped, and why (without the URL).
    struct Failure: Encodable {
        let url: String
        let error: String
    }

    func validate() throws {
        guard parallel >= 1 else { throw ValidationError("--parallel must be at least 1") }
    }

    func run() throws {
        let list = try URLList.urls(arguments: urls, listFile: listFile)
        guard !list.isEmpty else { throw CLIError("no URL to prefetch") }
        let host = pluginOptions.makeHost()
        var context = try manager.context(host: host)
        context.storeCacheType = try CacheTypeArgument.parse(storeCacheType, option: "--store-cache-type")
        let bar =
            !json && Diagnostics.standardErrorIsTerminal ? TransferProgressBar(total: list.count, noun: "images") : nil
        let imageManager = try manager.makeManager(host: host, bar: bar)
        let prefetcher = ImagePrefetcher(
            manager: imageManager, maxConcurrentPrefetchCount: parallel, options: .lowPriority, context: context)
        let started = ContinuousClock.now
        let (progress, failures) = runBlocking { () -> (PrefetchProgress, [PrefetchFailure]) in
            var token: PrefetchToken?
            let progress = await withCheckedContinuation { continuation in
                token = prefetcher.prefetch(
                    strings: list, progress: { bar?.show($0) }, completion: { continuation.resume(returning: $0) })
            }
            await imageManager.waitUntilIdle()
            return (progress, token?.failures ?? [])
        }
        bar?.show(progress)
        bar?.finish()
        let elapsed = ContinuousClock.now - started
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let storeFailures = imageManager.counters.storeFailures
        CacheFailureWarning.print(imageManager, backend: manager.cacheBackend)
        for failure in failures { URLFailures.print(url: list[failure.index], reason: failure.error.reason) }
        if json {
            let limit = ImageDownloaderConfiguration.defaultMaxURLLength
            try GetReport.printLine(
                Summary(
                    total: progress.total, finished: progress.finished, skipped: progress.skipped,
                    failed: progress.failed, storeFailures: storeFailures,
                    bytesDownloaded: imageManager.counters.downloadedBytes, ms: (ms * 10).rounded() / 10,
                    failures: failures.map {
                        Failure(url: URLText.abbreviated(list[$0.index], limit: limit), error: $0.error.reason)
                    }))
        } else {
            let prefetched = progress.finished - progress.failed - progress.skipped
            print(
                "\(prefetched) of \(progress.total) prefetched, \(progress.failed) failed, \(progress.skipped) skipped, "
                    + "\(storeFailures) stores failed, in " + String(printf: "%.1f ms", ms))
        }
        try URLFailures.finish(failed: failures.count, of: progress.total, noun: "images")
    }
}
