import ArgumentParser
import Foundation
import Synchronization
import WebImageCLISupport
import WebImageCore

/// `webimage bench manager pipeline --urls FILE --files DIR`: many distinct images thumbnailed
/// and stored in the disk cache through the manager, against decoding the same files alone
/// on `--threads` threads and against fetch + decode + store written by hand with the same
/// plugins; rounds interleaved, each with a fresh cache, the minimum of each kept.
struct BenchManagerPipelineCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline",
        abstract: "Thumbnails of many downloads: manager vs decode alone vs fetch+decode by hand.")

    @OptionGroup var manager: ManagerOptions

    var pluginOptions: PluginOptions { manager.pluginOptions }

    @Option(help: ArgumentHelp("The URLs, one a line.", valueName: "file"))
    var urls: String

    @Option(help: ArgumentHelp("The same images as local files (by the URL's last path component).", valueName: "dir"))
    var files: String

    @Option(help: "Threads for decoding alone (default 2).")
    var threads = 2

    @Option(help: "Rounds (default 3).")
    var rounds = 3

    @Option(help: "Most downloads at once (default 6).")
    var parallel = 6

    func run() throws {
        let list = try FetchPlan.urls(arguments: [], listFile: urls)
        guard !list.isEmpty else { throw CLIError("no URL in \(urls)") }
        let host = pluginOptions.makeHost()
        let context = try manager.context(host: host)
        let thumbnail = context.thumbnail
        let coders = host.makeCodersManager()
        let bytes = try list.map { url -> [UInt8] in
            let name = URL(string: url)?.lastPathComponent ?? ""
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: files).appendingPathComponent(name)))
        }
        let loaders: [any ImageLoader] = try host.plugins(of: .loader).map {
            try host.adapter(PluginLoader.self, named: $0.name)
        }
        var downloader = ImageDownloaderConfiguration()
        downloader.maxConcurrentDownloads = parallel
        var best = (pipeline: Double.infinity, decode: Double.infinity, byHand: Double.infinity)
        for round in 1...rounds {
            let decode = try decodeAlone(bytes, coders: coders, thumbnail: thumbnail)
            let byHand = try fetchDecodeByHand(
                list, loaders: loaders, configuration: downloader, coders: coders, thumbnail: thumbnail, host: host)
            let pipeline = try throughManager(list, host: host, configuration: downloader, context: context)
            print(
                String(
                    format:
                        "round %d: manager %.3f s, decode alone (%d threads) %.3f s, fetch+decode+store by hand %.3f s",
                    round, pipeline, threads, decode, byHand))
            best = (min(best.pipeline, pipeline), min(best.decode, decode), min(best.byHand, byHand))
        }
        print(
            String(
                format:
                    "best: manager %.3f s, decode alone %.3f s, by hand %.3f s; manager / decode alone %.2f; overhead per image vs by hand %.1f µs",
                best.pipeline, best.decode, best.byHand, best.pipeline / best.decode,
                (best.pipeline - best.byHand) / Double(list.count) * 1e6))
    }

    /// Decodes every file (in memory) to the thumbnail on `threads` threads; seconds.
    private func decodeAlone(_ bytes: [[UInt8]], coders: CodersManager, thumbnail: ThumbnailSize?) throws -> Double {
        let next = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        let started = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < bytes.count else { return }
                if (try? coders.decode(bytes[index], options: DecodeOptions(thumbnail: thumbnail))) == nil {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        guard failures.load(ordering: .relaxed) == 0 else { throw CLIError("decoding alone failed") }
        return seconds(ContinuousClock.now - started)
    }

    /// Downloads each URL, decodes it to the thumbnail on one thread per core and stores the
    /// bytes in a fresh disk cache, by hand with the same plugins; seconds.
    private func fetchDecodeByHand(
        _ urls: [String], loaders: [any ImageLoader], configuration: ImageDownloaderConfiguration,
        coders: CodersManager, thumbnail: ThumbnailSize?, host: PluginHost
    ) throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webimage-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = CacheConfiguration()
        options["directory"] = folder.path
        let disk = try host.adapter(PluginDiskCacheBackend.self, named: "disk").open(options)
        let downloader = ImageDownloader(loaders: loaders, configuration: configuration)
        // Downloads complete on the loader's thread into a list; one worker thread per core
        // takes them from it, decodes and stores.
        let pending = TrackedMutex<[(url: String, bytes: [UInt8])?]>([])
        let available = DispatchSemaphore(value: 0)
        let remaining = Atomic<Int>(urls.count)
        let failures = Atomic<Int>(0)
        let finished = DispatchSemaphore(value: 0)
        let workers = ProcessInfo.processInfo.activeProcessorCount
        let started = ContinuousClock.now
        for _ in 0..<workers {
            Thread {
                while true {
                    available.wait()
                    guard let item = pending.withLock({ $0.removeFirst() }) else { return }
                    let decoded = (try? coders.decode(item.bytes, options: DecodeOptions(thumbnail: thumbnail))) != nil
                    let stored = (try? disk.store(Data(item.bytes), extendedData: nil, forKey: item.url)) != nil
                    if !decoded || !stored { failures.add(1, ordering: .relaxed) }
                    if remaining.subtract(1, ordering: .relaxed).newValue == 0 { finished.signal() }
                }
            }.start()
        }
        for url in urls {
            downloader.download(DownloadRequest(url: url)) { result in
                switch result {
                case .success(let download):
                    pending.withLock { $0.append((url, download.data)) }
                    available.signal()
                case .failure:
                    failures.add(1, ordering: .relaxed)
                    if remaining.subtract(1, ordering: .relaxed).newValue == 0 { finished.signal() }
                }
            }
        }
        finished.wait()
        let elapsed = seconds(ContinuousClock.now - started)
        pending.withLock { list in
            for _ in 0..<workers { list.append(nil) }
        }
        for _ in 0..<workers { available.signal() }
        guard failures.load(ordering: .relaxed) == 0 else { throw CLIError("fetch+decode by hand failed") }
        return elapsed
    }

    /// Every URL through a fresh manager (fresh disk cache), thumbnailed and stored; seconds
    /// until every store finished.
    private func throughManager(
        _ urls: [String], host: PluginHost, configuration: ImageDownloaderConfiguration, context: ImageContext
    ) throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webimage-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var cacheConfiguration = ImageCacheConfiguration()
        cacheConfiguration.directory = folder.path
        let imageManager = try ImageManager(
            host: host, cacheConfiguration: cacheConfiguration, downloaderConfiguration: configuration)
        let group = DispatchGroup()
        let failures = Atomic<Int>(0)
        let started = ContinuousClock.now
        for url in urls {
            group.enter()
            imageManager.load(url, context: context) { result in
                if case .failure = result { failures.add(1, ordering: .relaxed) }
                group.leave()
            }
        }
        group.wait()
        runBlocking { await imageManager.waitUntilIdle() }
        let elapsed = seconds(ContinuousClock.now - started)
        guard failures.load(ordering: .relaxed) == 0 else {
            throw CLIError("\(failures.load(ordering: .relaxed)) loads failed")
        }
        let counters = imageManager.counters
        guard counters.downloads == urls.count, counters.decodes == urls.count else {
            throw CLIError(
                "the manager made \(counters.downloads) downloads and \(counters.decodes) decodes for \(urls.count) URLs"
            )
        }
        return elapsed
    }
}
