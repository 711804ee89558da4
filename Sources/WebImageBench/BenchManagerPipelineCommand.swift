import ArgumentParser
import Foundation
import Synchronization
import WebImageCLISupport
import WebImageCore

/// `webimage-bench manager pipeline --urls FILE --files DIR`: many distinct images thumbnailed
/// and stored through the manager (on disk only, the workload, and with the default
/// store cache type, memory and disk), against decoding the same files alone on `--threads`
/// threads and against fetch + decode + store written by hand with the same plugins; rounds
/// interleaved, each with a fresh cache (in `--cache-dir`, kept, when given), the minimum of
/// each kept. Each side also reports the CPU seconds of this process and, with `--server-pid`,
/// of the web server. A last side measures what keeping every thumbnail in memory costs by
/// itself: fresh memory of the thumbnails' size, written once.
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

    @Option(
        name: .customLong("store-cache-type"),
        help: ArgumentHelp(
            "Where the manager side stores the thumbnails: none, memory, disk or all (default all, the manager's default).",
            valueName: "type"))
    var storeCacheType = "all"

    @Option(
        help: ArgumentHelp(
            "Run one side only (for profiling): manager, manager-disk, decode, by-hand or fresh-memory.",
            valueName: "side"))
    var only: Side?

    @Flag(help: "Print each round as one JSON object (wall and CPU seconds of every side) instead of text.")
    var json = false

    @Option(
        name: .customLong("server-pid"),
        help: ArgumentHelp("The web server's process id: its CPU seconds are reported per side.", valueName: "pid"))
    var serverPID: Int32?

    /// The sides of a round.
    enum Side: String, CaseIterable, ExpressibleByArgument {
        /// The manager with `--store-cache-type` (default memory and disk).
        case manager
        /// The manager storing on disk only: the thumbnails are not kept in memory.
        case managerDisk = "manager-disk"
        case decode
        case byHand = "by-hand"
        /// Fresh memory for every thumbnail, written once and kept until the last: what the
        /// memory cache's copies cost by themselves.
        case freshMemory = "fresh-memory"
    }

    /// One side's round: wall seconds, this process's CPU seconds and the server's.
    struct Measurement {
        var wall: Double
        var cpu: Double
        var serverCPU: Double?
        /// The manager's: seconds until the last load completed (its stores finish after).
        var completed: Double?

        var text: String {
            String(format: "%.3f s (CPU %.3f s", wall, cpu)
                + (serverCPU.map { String(format: ", server CPU %.3f s", $0) } ?? "")
                + (completed.map { String(format: ", last load completed at %.3f s", $0) } ?? "") + ")"
        }

        /// `{"wall": W, "cpu": C, "server_cpu": S, "completed": T}` in seconds (to the
        /// microsecond), the absent ones left out.
        var json: String {
            var fields = [String(format: "\"wall\": %.6f", wall), String(format: "\"cpu\": %.6f", cpu)]
            if let serverCPU { fields.append(String(format: "\"server_cpu\": %.6f", serverCPU)) }
            if let completed { fields.append(String(format: "\"completed\": %.6f", completed)) }
            return "{" + fields.joined(separator: ", ") + "}"
        }
    }

    func run() throws {
        let list = try URLList.urls(arguments: [], listFile: urls)
        guard !list.isEmpty else { throw CLIError("no URL in \(urls)") }
        let host = pluginOptions.makeHost()
        var context = try manager.context(host: host)
        context.storeCacheType = try CacheTypeArgument.parse(storeCacheType, option: "--store-cache-type")
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
        // Every round's caches stay until the end: deleting a thousand files just before the
        // next round creates a thousand makes ext4 skip the recently freed inodes one by one
        // in every create (recently_deleted), which would be timed as the next side's store.
        // With --cache-dir they stay after it too, for a script that runs several.
        let scratch =
            manager.cacheDirectory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { if manager.cacheDirectory == nil { try? FileManager.default.removeItem(at: scratch) } }
        var diskContext = context
        diskContext.storeCacheType = .disk
        let clock = BenchCPUClock(serverPID: serverPID)
        let sides = only.map { [$0] } ?? [.decode, .byHand, .managerDisk, .manager, .freshMemory]
        // The size of one decoded thumbnail, found once and outside every timed side.
        var thumbnailBytes = 0
        if sides.contains(.freshMemory) {
            let pixels = try coders.decode(bytes[0], options: DecodeOptions(thumbnail: thumbnail)).pixels
            thumbnailBytes = pixels.bytesPerRow * pixels.height
        }
        var best: [Side: Measurement] = [:]
        for round in 1...rounds {
            var measured: [Side: Measurement] = [:]
            for side in sides {
                let folder = scratch.appendingPathComponent("\(round)-\(side.rawValue)")
                // The files an earlier side wrote reach the disk now, not while this side runs
                // (the kernel's writeback of hundreds of dirty megabytes took CPU from it).
                sync()
                let before = clock.now()
                let wall: Double
                var completed: Double?
                switch side {
                case .decode:
                    wall = try decodeAlone(bytes, coders: coders, thumbnail: thumbnail)
                case .byHand:
                    wall = try fetchDecodeByHand(
                        list, loaders: loaders, configuration: downloader, coders: coders, thumbnail: thumbnail,
                        host: host, folder: folder)
                case .manager, .managerDisk:
                    (wall, completed) = try throughManager(
                        list, host: host, configuration: downloader, context: side == .manager ? context : diskContext,
                        folder: folder)
                case .freshMemory:
                    wall = try freshMemory(count: list.count, byteCount: thumbnailBytes)
                }
                let after = clock.now()
                let measurement = Measurement(
                    wall: wall, cpu: after.process - before.process,
                    serverCPU: after.server.flatMap { end in before.server.map { end - $0 } }, completed: completed)
                measured[side] = measurement
                if best[side].map({ $0.wall > wall }) ?? true { best[side] = measurement }
            }
            if json {
                let fields = Side.allCases.compactMap { side in
                    measured[side].map { "\"\(side.rawValue)\": \($0.json)" }
                }
                print("{\"round\": \(round), " + fields.joined(separator: ", ") + "}")
            } else {
                print("round \(round): " + Self.describe(measured, threads: threads))
            }
        }
        guard !json else { return }
        print("best: " + Self.describe(best, threads: threads))
        if let manager = best[.manager], let decode = best[.decode] {
            print(String(format: "best manager / best decode alone: %.2f", manager.wall / decode.wall))
        }
        if let manager = best[.manager], let byHand = best[.byHand] {
            print(
                String(
                    format: "manager overhead per image vs by hand: %.1f µs",
                    (manager.wall - byHand.wall) / Double(list.count) * 1e6))
        }
    }

    /// "manager W s (CPU C s), decode alone (N threads) …, fetch+decode+store by hand …" for
    /// the sides measured.
    private static func describe(_ measured: [Side: Measurement], threads: Int) -> String {
        var parts: [String] = []
        if let manager = measured[.managerDisk] { parts.append("manager storing on disk only " + manager.text) }
        if let manager = measured[.manager] { parts.append("manager " + manager.text) }
        if let decode = measured[.decode] { parts.append("decode alone (\(threads) threads) " + decode.text) }
        if let byHand = measured[.byHand] { parts.append("fetch+decode+store by hand " + byHand.text) }
        if let memory = measured[.freshMemory] { parts.append("fresh memory for the thumbnails " + memory.text) }
        return parts.joined(separator: ", ")
    }

    /// Allocates `count` blocks of `byteCount` bytes (from the allocator decoders use), writes
    /// every byte of each once, keeps them all to the end as a memory cache would, then frees
    /// them; seconds until the last was written.
    private func freshMemory(count: Int, byteCount: Int) throws -> Double {
        var blocks: [UnsafeMutableRawPointer] = []
        blocks.reserveCapacity(count)
        defer { for block in blocks { PixelAllocator.system.deallocate(block) } }
        let started = ContinuousClock.now
        for _ in 0..<count {
            guard let block = PixelAllocator.system.allocate(byteCount, 64) else {
                throw CLIError("cannot allocate \(byteCount) bytes")
            }
            block.initializeMemory(as: UInt8.self, repeating: 1, count: byteCount)
            blocks.append(block)
        }
        return seconds(ContinuousClock.now - started)
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
    /// bytes in a fresh disk cache in `folder`, by hand with the same plugins; seconds.
    private func fetchDecodeByHand(
        _ urls: [String], loaders: [any ImageLoader], configuration: ImageDownloaderConfiguration,
        coders: CodersManager, thumbnail: ThumbnailSize?, host: PluginHost, folder: URL
    ) throws -> Double {
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

    /// Every URL through a fresh manager (fresh disk cache in `folder`), thumbnailed and stored:
    /// seconds until every store finished, and until every load completed (stores run after).
    private func throughManager(
        _ urls: [String], host: PluginHost, configuration: ImageDownloaderConfiguration, context: ImageContext,
        folder: URL
    ) throws -> (elapsed: Double, completed: Double) {
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
        let completed = seconds(ContinuousClock.now - started)
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
        return (elapsed, completed)
    }
}
