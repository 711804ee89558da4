import Foundation
import Testing
import WebImageTestSupport

@testable import WebImageCore

/// Identical work runs once at every stage, counted at the loader (``GatedImageLoader``'s
/// transfers) and in the manager's counters. No server and nothing timed: each test holds the
/// download at its gate until every request has subscribed to the stage it shares, then opens it.
@Suite("ImageManager coalescing", .serialized, .ownThread)
struct ImageManagerCoalescingTests {
    /// Runs `requests` at once, opens the gate of `name` once `stage` of the harness's manager
    /// had `count` subscriptions, and returns the requests' values in the order they ended.
    func run<Value: Sendable>(
        _ requests: [@Sendable () async throws -> Value], opening name: String, after count: Int,
        at stage: GatedHarness.Stage, in harness: GatedHarness
    ) async throws -> [Value] {
        async let values = withThrowingTaskGroup(of: Value.self) { group in
            for request in requests { group.addTask { try await request() } }
            return try await group.reduce(into: [Value]()) { $0.append($1) }
        }
        #expect(await harness.waitForSubscriptions(count, to: stage))
        harness.loader.open(name)
        return try await values
    }

    @Test("100 identical concurrent requests: 1 request at the server, 1 decode")
    func hundredIdentical() async throws {
        let harness = try GatedHarness()
        let url = harness.url("photo.jpg")
        let results = try await run(
            Array(repeating: { try await harness.manager.image(for: url) }, count: 100), opening: "photo.jpg",
            after: 100, at: .image, in: harness)
        #expect(results.count == 100)
        #expect(results.allSatisfy { $0.image?.width == 640 && $0.cacheType == .none })
        #expect(results.filter(\.metrics.coalesced).count >= 99)
        #expect(harness.loader.starts(of: "photo.jpg") == 1)
        #expect(harness.manager.counters.downloads == 1)
        #expect(harness.manager.counters.decodes == 1)
    }

    /// The manager joins identical downloads itself (one download work per key), so its
    /// downloader does not join them again: one coalescing layer, one key built per download.
    @Test("the manager's transfer is not joined in the downloader: a direct download of the URL meanwhile is its own")
    func downloaderDoesNotJoinTheManagersTransfer() async throws {
        let harness = try GatedHarness()
        // A failed requirement below ends the test without waiting for a held transfer.
        defer { harness.loader.openAll() }
        let url = harness.url("photo.jpg")
        async let image = harness.manager.image(for: url)
        #expect(await harness.loader.waitForStarts(1, of: "photo.jpg"))
        let downloader = harness.manager.downloader
        #expect(downloader.activeCount == 1)
        let (received, sizes) = AsyncStream.makeStream(of: Int.self)
        downloader.download(DownloadRequest(url: url.absoluteString)) { result in
            sizes.yield((try? result.get().data.count) ?? -1)
            sizes.finish()
        }
        try #require(downloader.activeCount == 2)
        #expect(await harness.loader.waitForStarts(2, of: "photo.jpg"))
        harness.loader.open("photo.jpg")
        #expect(try await image.image?.width == 640)
        #expect(await received.first { _ in true } == harness.images["photo.jpg"]?.count)
        #expect(harness.loader.starts(of: "photo.jpg") == 2)
    }

    @Test("one download per URL, one decode per decode settings: two thumbnails and the full size of one URL")
    func oneDownloadManyDecodes() async throws {
        let harness = try GatedHarness()
        let url = harness.url("photo.jpg")
        let sizes: [ThumbnailSize?] = [
            ThumbnailSize(width: 64, height: 64), ThumbnailSize(width: 128, height: 128), nil,
        ]
        let requests = (sizes + sizes).map { size in
            var context = ImageContext()
            context.thumbnail = size
            return { @Sendable [context] in
                try await harness.manager.image(for: url, context: context).image?.width ?? 0
            }
        }
        // Three decodes (one per size) wait for the one download.
        let widths = try await run(requests, opening: "photo.jpg", after: 3, at: .download, in: harness).sorted()
        #expect(widths == [64, 64, 128, 128, 640, 640])
        #expect(harness.loader.starts(of: "photo.jpg") == 1)
        #expect(harness.manager.counters.decodes == 3)
    }

    @Test("first frame only is a decode of its own: one download, two decodes, two stills and two animations")
    func firstFrameIsNotCoalescedWithTheAnimation() async throws {
        let harness = try GatedHarness()
        let url = harness.url("anim.gif")
        let options: [ImageManagerOptions] = [[], .decodeFirstFrameOnly, [], .decodeFirstFrameOnly]
        let requests = options.map { option in
            { @Sendable in
                try await harness.manager.image(for: url, options: option).image?.traits.contains(.animated) == true
            }
        }
        let animated = try await run(requests, opening: "anim.gif", after: 2, at: .download, in: harness)
            .sorted { !$0 && $1 }
        #expect(animated == [false, false, true, true])
        #expect(harness.loader.starts(of: "anim.gif") == 1)
        #expect(harness.manager.counters.decodes == 2)
    }

    @Test(
        "requests differing only in the store cache type run a flow each (4 stores for memory, disk, all), sharing one download and one decode"
    )
    func storeCacheTypeSeparatesFlows() async throws {
        let harness = try GatedHarness()
        let url = harness.url("photo.jpg")
        let types: [ImageCacheType] = [.memory, .disk, .all]
        let requests = (types + types).map { type in
            var context = ImageContext()
            context.thumbnail = ThumbnailSize(width: 64, height: 64)
            context.storeCacheType = type
            return { @Sendable [context] in
                try await harness.manager.image(for: url, options: .waitStoreCache, context: context).image?.width ?? 0
            }
        }
        // Three flows (one per store type) wait for the one decode.
        let widths = try await run(requests, opening: "photo.jpg", after: 3, at: .decode, in: harness)
        await harness.manager.waitUntilIdle()
        #expect(widths == Array(repeating: 64, count: 6))
        #expect(harness.loader.starts(of: "photo.jpg") == 1)
        #expect(harness.manager.counters.downloads == 1)
        #expect(harness.manager.counters.decodes == 1)
        // memory: 1 store, disk: 1, all: 2; identical requests share their flow's stores.
        #expect(harness.manager.counters.stores == 4)
        let cache = harness.imageCache()
        #expect(
            cache.imageFromMemory(
                forKey: CacheKeys.thumbnailKey(url.absoluteString, size: .init(width: 64, height: 64)))?.width == 64)
        #expect(
            try cache.disk.entry(forKey: url.absoluteString).map { [UInt8]($0.data) } == harness.images["photo.jpg"])
    }

    @Test("a chain [a, b, c] reuses [a, b]: one download, one decode, three transforms for both chains")
    func chainPrefixReuse() async throws {
        let harness = try GatedHarness()
        let url = harness.url("photo.jpg")
        let a = try ResizingTransformer(width: 100, height: 80, scaleMode: .fill)
        let b = FlippingTransformer(horizontal: true, vertical: false)
        let c = try CroppingTransformer(x: 0, y: 0, width: 50, height: 40)
        let chains = [TransformerPipeline([a, b]), TransformerPipeline([a, b, c]), TransformerPipeline([a, b])]
        let requests = chains.map { chain in
            var context = ImageContext()
            context.transformer = chain
            return { @Sendable [context] in
                let image = try await harness.manager.image(for: url, context: context).image
                return "\(image?.width ?? 0)x\(image?.height ?? 0)"
            }
        }
        // [a, b] started by its flow and joined by [a, b, c]'s, [a, b, c] and [a]: 4 subscriptions.
        let sizes = try await run(requests, opening: "photo.jpg", after: 4, at: .transform, in: harness).sorted()
        #expect(sizes == ["100x80", "100x80", "50x40"])
        #expect(harness.loader.starts(of: "photo.jpg") == 1)
        #expect(harness.manager.counters.decodes == 1)
        #expect(harness.manager.counters.transforms == 3)
    }

    @Test("a subscriber that leaves does not stop the others; the last one leaving stops the download")
    func leaveAndLastLeave() async throws {
        let harness = try GatedHarness()
        let url = harness.url("progressive.jpg")
        let leaving = Recorder()
        let staying = Recorder()
        let first = harness.manager.load(url, completed: leaving.completed)
        harness.manager.load(url, completed: staying.completed)
        #expect(await harness.waitForSubscriptions(2, to: .image))
        #expect(await harness.loader.waitForStarts(1, of: "progressive.jpg"))
        first.cancel()
        #expect(await leaving.wait(for: 1).first?.errorKind == .cancelled)
        #expect(harness.loader.cancellations(of: "progressive.jpg") == 0)
        harness.loader.open("progressive.jpg")
        let stayed = await staying.wait(for: 1)
        #expect(stayed.first?.value?.image?.width == 320)
        #expect(harness.loader.starts(of: "progressive.jpg") == 1)

        // Both requests of the held photo.jpg leave: its transfer is cancelled, nothing is decoded.
        let other = try harness.makeManager()
        let recorders = [Recorder(), Recorder()]
        let operations = recorders.map { other.load(harness.url("photo.jpg"), completed: $0.completed) }
        #expect(await harness.waitForSubscriptions(2, to: .image, of: other))
        #expect(await harness.loader.waitForStarts(1, of: "photo.jpg"))
        for operation in operations { operation.cancel() }
        for recorder in recorders { #expect(await recorder.wait(for: 1).first?.errorKind == .cancelled) }
        try #require(await harness.loader.waitForCancellations(1, of: "photo.jpg"))
        await other.waitUntilIdle()
        #expect(!other.isRunning)
        #expect(other.downloader.activeCount == 0)
        #expect(other.counters.decodes == 0)
    }

    @Test("a follower is not stuck behind a hung leader: its own timeout and cancel work")
    func followerNotStuck() async throws {
        let harness = try GatedHarness()
        // The leader's transfer is held at its gate for the whole test.
        let url = harness.url("progressive.jpg")
        let leader = Recorder()
        let leaderOperation = harness.manager.load(url, completed: leader.completed)
        #expect(await harness.loader.waitForStarts(1, of: "progressive.jpg"))
        var context = ImageContext()
        context.timeout = .milliseconds(300)
        do {
            _ = try await harness.manager.image(for: url, context: context)
            Issue.record("the follower loaded before its timeout")
        } catch {
            #expect(error.kind == .timedOut)
        }
        // The follower ended while the leader's download still runs.
        #expect(!leaderOperation.isFinished)
        let follower = Recorder()
        let followerOperation = harness.manager.load(url, completed: follower.completed)
        followerOperation.cancel()
        #expect(await follower.wait(for: 1).first?.errorKind == .cancelled)
        #expect(!leaderOperation.isFinished)
        leaderOperation.cancel()
        #expect(await leader.wait(for: 1).first?.errorKind == .cancelled)
        #expect(harness.loader.starts(of: "progressive.jpg") == 1)
        #expect(await harness.loader.waitForCancellations(1, of: "progressive.jpg"))
    }

    /// Waits (at most 120 s, a bound for a loaded machine) until `manager`'s downloader holds
    /// `count` downloads, running or queued.
    func waitForDownloads(_ count: Int, in manager: ImageManager) async throws {
        let deadline = ContinuousClock.now + HangBound.scaled(.seconds(120))
        while manager.downloader.activeCount < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(manager.downloader.activeCount == count)
    }

    /// One download slot, held by `large.bin` at its gate until the requests under test are
    /// queued: the order the loader sees is then the queue's alone.
    @Test("the download runs at the highest priority of its requests and follows a change")
    func priorityFollowsSubscribers() async throws {
        var downloader = ImageDownloaderConfiguration()
        downloader.maxConcurrentDownloads = 1
        let harness = try GatedHarness(
            open: ["icon.png", "wide.png", "other.jpg", "anim.gif"], downloader: downloader)
        let blocker = harness.manager.load(harness.url("large.bin")) { _ in }
        try await waitForDownloads(1, in: harness.manager)
        let low = Recorder()
        let normal = Recorder()
        let lowOperation = harness.manager.load(
            harness.url("icon.png"), options: .lowPriority, completed: low.completed)
        try await waitForDownloads(2, in: harness.manager)
        harness.manager.load(harness.url("wide.png"), completed: normal.completed)
        try await waitForDownloads(3, in: harness.manager)
        // A second request for the low one at high priority raises the shared download.
        let high = Recorder()
        harness.manager.load(harness.url("icon.png"), options: .highPriority, completed: high.completed)
        #expect(await harness.waitForSubscriptions(4, to: .image))
        blocker.cancel()
        _ = await normal.wait(for: 1)
        _ = await low.wait(for: 1)
        #expect(harness.loader.startOrder == ["large.bin", "icon.png", "wide.png"])
        #expect(high.completions.count == 1 && lowOperation.isFinished)

        // Raising an operation's own priority works the same way.
        let other = try harness.makeManager(downloader: downloader)
        let blocker2 = other.load(harness.url("large.bin")) { _ in }
        try await waitForDownloads(1, in: other)
        let lowAgain = Recorder()
        let normalAgain = Recorder()
        let raised = other.load(harness.url("other.jpg"), options: .lowPriority, completed: lowAgain.completed)
        try await waitForDownloads(2, in: other)
        other.load(harness.url("anim.gif"), completed: normalAgain.completed)
        try await waitForDownloads(3, in: other)
        raised.priority = .high
        blocker2.cancel()
        _ = await normalAgain.wait(for: 1)
        _ = await lowAgain.wait(for: 1)
        #expect(harness.loader.startOrder.suffix(3) == ["large.bin", "other.jpg", "anim.gif"])
    }
}
