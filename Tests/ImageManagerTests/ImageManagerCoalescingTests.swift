import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// Identical work runs once at every stage, counted at the server (nginx's log) and in the
/// manager's counters.
@Suite("ImageManager coalescing", .serialized)
struct ImageManagerCoalescingTests {
    @Test("100 identical concurrent requests: 1 request at the server, 1 decode")
    func hundredIdentical() async throws {
        let harness = try ManagerHarness()
        let url = harness.slowURL("photo.jpg")
        let results = try await withThrowingTaskGroup(of: ImageResult.self) { group in
            for _ in 0..<100 { group.addTask { try await harness.manager.image(for: url) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 100)
        #expect(results.allSatisfy { $0.image?.width == 640 && $0.cacheType == .none })
        #expect(results.filter(\.metrics.coalesced).count >= 99)
        #expect(harness.requests("/slow/photo.jpg", atLeast: 1).count == 1)
        #expect(harness.manager.counters.downloads == 1)
        #expect(harness.manager.counters.decodes == 1)
    }

    @Test("one download per URL, one decode per decode settings: two thumbnails and the full size of one URL")
    func oneDownloadManyDecodes() async throws {
        let harness = try ManagerHarness()
        // The download stays open long enough for the six requests to join it on a loaded machine.
        let url = harness.slowURL("photo.jpg", bytesPerSecond: 10_000)
        let sizes: [ThumbnailSize?] = [
            ThumbnailSize(width: 64, height: 64), ThumbnailSize(width: 128, height: 128), nil,
        ]
        let widths = try await withThrowingTaskGroup(of: Int.self) { group in
            for size in sizes + sizes {
                var context = ImageContext()
                context.thumbnail = size
                group.addTask { try await harness.manager.image(for: url, context: context).image?.width ?? 0 }
            }
            return try await group.reduce(into: []) { $0.append($1) }.sorted()
        }
        #expect(widths == [64, 64, 128, 128, 640, 640])
        #expect(harness.requests("/slow/photo.jpg", atLeast: 1).count == 1)
        #expect(harness.manager.counters.decodes == 3)
    }

    @Test("first frame only is a decode of its own: one download, two decodes, two stills and two animations")
    func firstFrameIsNotCoalescedWithTheAnimation() async throws {
        let harness = try ManagerHarness()
        // 4,990 bytes at 2,000 bytes/s: the download stays open 2.5 s for the four requests to join.
        let url = harness.slowURL("anim.gif", bytesPerSecond: 2000)
        let options: [ImageManagerOptions] = [[], .decodeFirstFrameOnly, [], .decodeFirstFrameOnly]
        let animated = try await withThrowingTaskGroup(of: Bool.self) { group in
            for option in options {
                group.addTask {
                    try await harness.manager.image(for: url, options: option).image?.traits.contains(.animated) == true
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }.sorted { !$0 && $1 }
        }
        #expect(animated == [false, false, true, true])
        #expect(harness.requests("/slow/anim.gif", atLeast: 1).count == 1)
        #expect(harness.manager.counters.decodes == 2)
    }

    @Test(
        "requests differing only in the store cache type run a flow each (4 stores for memory, disk, all), sharing one download and one decode"
    )
    func storeCacheTypeSeparatesFlows() async throws {
        let harness = try ManagerHarness()
        // 10,000 B/s: at the default 20 KB/s nginx sends the small photo.jpg at once, and a
        // request that starts late (a TSan build) found the download done and made another.
        let url = harness.slowURL("photo.jpg", bytesPerSecond: 10_000)
        let types: [ImageCacheType] = [.memory, .disk, .all]
        let widths = try await withThrowingTaskGroup(of: Int.self) { group in
            for type in types + types {
                var context = ImageContext()
                context.thumbnail = ThumbnailSize(width: 64, height: 64)
                context.storeCacheType = type
                group.addTask {
                    try await harness.manager.image(for: url, options: .waitStoreCache, context: context).image?.width
                        ?? 0
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        await harness.manager.waitUntilIdle()
        #expect(widths == Array(repeating: 64, count: 6))
        #expect(harness.requests("/slow/photo.jpg", atLeast: 1).count == 1)
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
        let harness = try ManagerHarness()
        let url = harness.slowURL("photo.jpg")
        let a = try ResizingTransformer(width: 100, height: 80, scaleMode: .fill)
        let b = FlippingTransformer(horizontal: true, vertical: false)
        let c = try CroppingTransformer(x: 0, y: 0, width: 50, height: 40)
        let chains = [TransformerPipeline([a, b]), TransformerPipeline([a, b, c]), TransformerPipeline([a, b])]
        let sizes = try await withThrowingTaskGroup(of: String.self) { group in
            for chain in chains {
                var context = ImageContext()
                context.transformer = chain
                group.addTask {
                    let image = try await harness.manager.image(for: url, context: context).image
                    return "\(image?.width ?? 0)x\(image?.height ?? 0)"
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }.sorted()
        }
        #expect(sizes == ["100x80", "100x80", "50x40"])
        #expect(harness.requests("/slow/photo.jpg", atLeast: 1).count == 1)
        #expect(harness.manager.counters.decodes == 1)
        #expect(harness.manager.counters.transforms == 3)
    }

    @Test("a subscriber that leaves does not stop the others; the last one leaving stops the download")
    func leaveAndLastLeave() async throws {
        let harness = try ManagerHarness()
        let url = harness.slowURL("progressive.jpg")
        let leaving = Recorder()
        let staying = Recorder()
        let first = harness.manager.load(url, completed: leaving.completed)
        harness.manager.load(url, completed: staying.completed)
        try await Task.sleep(for: .milliseconds(200))
        first.cancel()
        #expect(await leaving.wait(for: 1).first?.errorKind == .cancelled)
        let stayed = await staying.wait(for: 1)
        #expect(stayed.first?.value?.image?.width == 320)
        #expect(harness.requests("/slow/progressive.jpg", atLeast: 1).count == 1)

        // At 2,000 B/s the download surely runs when both leave: at the default 20 KB/s nginx
        // sent the small photo.jpg at once, and its decode could start before the cancels.
        let other = try harness.makeManager()
        let recorders = [Recorder(), Recorder()]
        let slowPhoto = harness.slowURL("photo.jpg", bytesPerSecond: 2_000)
        let operations = recorders.map { other.load(slowPhoto, completed: $0.completed) }
        try await Task.sleep(for: .milliseconds(200))
        for operation in operations { operation.cancel() }
        for recorder in recorders { #expect(await recorder.wait(for: 1).first?.errorKind == .cancelled) }
        await other.waitUntilIdle()
        #expect(!other.isRunning)
        #expect(other.downloader.activeCount == 0)
        #expect(other.counters.decodes == 0)
    }

    @Test("a follower is not stuck behind a hung leader: its own timeout and cancel work")
    func followerNotStuck() async throws {
        let harness = try ManagerHarness()
        // Slow enough that the leader's download still runs when the follower times out and
        // when the next one leaves, however loaded the machine (the leader is cancelled at the end).
        let url = harness.slowURL("progressive.jpg", bytesPerSecond: 5_000)
        let leader = Recorder()
        let leaderOperation = harness.manager.load(url, completed: leader.completed)
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

    /// One download slot, held by a slow transfer that is cancelled only once the requests
    /// under test are queued: the order nginx sees is then the queue's alone.
    @Test("the download runs at the highest priority of its requests and follows a change")
    func priorityFollowsSubscribers() async throws {
        var downloader = ImageDownloaderConfiguration()
        downloader.maxConcurrentDownloads = 1
        let harness = try ManagerHarness(downloader: downloader)
        let blocker = harness.manager.load(harness.slowURL("large.bin")) { _ in }
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
        try await Task.sleep(for: .milliseconds(100))
        blocker.cancel()
        _ = await normal.wait(for: 1)
        _ = await low.wait(for: 1)
        let order = harness.requests("/static/", atLeast: 2).map { $0.split(separator: "|")[0] }
        #expect(order == ["/static/icon.png", "/static/wide.png"])
        #expect(high.completions.count == 1 && lowOperation.isFinished)

        // Raising an operation's own priority works the same way.
        let other = try harness.makeManager(downloader: downloader)
        let blocker2 = other.load(harness.slowURL("large.bin")) { _ in }
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
        let later = harness.requests("/static/", atLeast: 4).map { $0.split(separator: "|")[0] }.suffix(2)
        #expect(Array(later) == ["/static/other.jpg", "/static/anim.gif"])
    }
}
