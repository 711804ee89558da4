import ArgumentParser
import Foundation
import WebImageCLISupport
import WebImageCore

/// `webimage prefetch URL...`: loads images into the caches ahead of time with the prefetcher.
struct PrefetchCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Load images into the memory and disk caches ahead of time.",
        discussion: """
            A progress bar of images and bytes on a terminal, then a summary line; --json prints the summary as JSON. The command exits after every \
            store has finished; the exit status is 1 when any URL failed or was skipped. Failed \
            stores to the cache (a full or read-only file system) are counted (store_failures) \
            with one warning.
            """)

    @OptionGroup var manager: ManagerOptions

    var pluginOptions: PluginOptions { manager.pluginOptions }

    @Argument(help: "The URLs to prefetch.")
    var urls: [String] = []

    @Option(
        name: .customLong("from"),
        help: ArgumentHelp("Read more URLs, one a line, from a file or - for standard input.", valueName: "file"))
    var listFile: String?

    @Option(help: "Most images at once (default 3).")
    var parallel = 3

    @Flag(help: "Print a JSON summary instead of the progress bar.")
    var json = false

    /// The JSON summary.
    struct Summary: Encodable {
        let total: Int
        let finished: Int
        let skipped: Int
        let failed: Int
        /// Stores to the cache that failed (``PipelineCounters/storeFailures``).
        let storeFailures: Int
        /// Body bytes received from the network (``PipelineCounters/downloadedBytes``); 0
        /// when every image came from the caches.
        let bytesDownloaded: Int
        let ms: Double

        enum CodingKeys: String, CodingKey {
            case total, finished, skipped, failed, ms
            case storeFailures = "store_failures"
            case bytesDownloaded = "bytes_downloaded"
        }
    }

    func validate() throws {
        guard parallel >= 1 else { throw ValidationError("--parallel must be at least 1") }
    }

    func run() throws {
        let list = try FetchPlan.urls(arguments: urls, listFile: listFile)
        guard !list.isEmpty else { throw CLIError("no URL to prefetch") }
        let host = pluginOptions.makeHost()
        let context = try manager.context(host: host)
        let bar =
            !json && Diagnostics.standardErrorIsTerminal ? TransferProgressBar(total: list.count, noun: "images") : nil
        let imageManager = try manager.makeManager(host: host, bar: bar)
        let prefetcher = ImagePrefetcher(
            manager: imageManager, maxConcurrentPrefetchCount: parallel, options: .lowPriority, context: context)
        let started = ContinuousClock.now
        let progress = runBlocking { () -> PrefetchProgress in
            let progress = await withCheckedContinuation { continuation in
                prefetcher.prefetch(
                    strings: list, progress: { bar?.show($0) }, completion: { continuation.resume(returning: $0) })
            }
            await imageManager.waitUntilIdle()
            return progress
        }
        bar?.show(progress)
        bar?.finish()
        let elapsed = ContinuousClock.now - started
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let storeFailures = imageManager.counters.storeFailures
        CacheFailureWarning.print(imageManager, backend: manager.cacheBackend)
        if json {
            try GetReport.printLine(
                Summary(
                    total: progress.total, finished: progress.finished, skipped: progress.skipped,
                    failed: progress.failed, storeFailures: storeFailures,
                    bytesDownloaded: imageManager.counters.downloadedBytes, ms: (ms * 10).rounded() / 10))
        } else {
            print(
                "\(progress.finished) of \(progress.total) prefetched (\(progress.skipped) skipped, \(progress.failed) failed, "
                    + "\(storeFailures) stores failed) in " + String(format: "%.1f ms", ms))
        }
        if progress.failed + progress.skipped > 0 {
            throw CLIError("\(progress.failed) failed and \(progress.skipped) skipped of \(progress.total) URLs")
        }
    }
}
