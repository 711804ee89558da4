import Foundation
import Synchronization
import Testing
import WebImageTestSupport

@testable import WebImageCore

/// The flow of a plain request, run without a task (`ImageManager+FlowWithoutTask.swift`):
/// the same steps as the task's flow, each taken where the one before ended.
@Suite("image manager: the flow of a plain request without a task", .serialized, .ownThread)
struct ImageManagerFlowWithoutTaskTests {
    /// Stores the downloaded bytes as they are.
    struct OriginalBytes: CacheSerializer {
        func cacheData(for image: DecodedImage, originalData: Data?, key: String) -> Data? { originalData }
    }

    @Test(
        "a plain request runs without a task (revalidate-stale too); a transformer, a refresh, a serializer in a task")
    func whichRequestsRunWithoutTask() throws {
        let harness = try GatedHarness()
        let manager = harness.manager
        func plan(_ options: ImageManagerOptions = [], _ context: ImageContext = ImageContext()) -> ImageRequestPlan {
            ImageRequestPlan(url: harness.url("icon.png"), options: options, context: context, manager: manager)
        }
        var thumbnail = ImageContext()
        thumbnail.thumbnail = ThumbnailSize(width: 16, height: 16)
        var transformed = ImageContext()
        transformed.transformer = FlippingTransformer(horizontal: true, vertical: false)
        #expect(manager.runsWithoutTask(plan()))
        #expect(manager.runsWithoutTask(plan([.fromCacheOnly, .progressiveLoad, .retryFailed], thumbnail)))
        #expect(manager.runsWithoutTask(plan([.revalidateStale, .transformAnimatedImage], thumbnail)))
        #expect(!manager.runsWithoutTask(plan([], transformed)))
        var serialized = ImageContext()
        serialized.cacheSerializer = OriginalBytes()
        #expect(!manager.runsWithoutTask(plan([], serialized)))
        for option in [ImageManagerOptions.refreshCached, .waitStoreCache, .queryMemoryData] {
            #expect(!manager.runsWithoutTask(plan(option)), "\(option)")
        }
    }

    @Test("downloaded, then read from disk by a new manager (decoded once, kept in memory), then from memory")
    func networkThenDiskThenMemory() async throws {
        let harness = try GatedHarness(open: ["icon.png"])
        let url = harness.url("icon.png")
        let downloaded = try await harness.manager.image(for: url)
        #expect(downloaded.cacheType == .none)
        #expect(downloaded.image?.width == 64 && downloaded.image?.height == 48)
        #expect(downloaded.data == Data(harness.images["icon.png"]!))
        await harness.manager.waitUntilIdle()

        let second = try harness.makeManager()
        let fromDisk = try await second.image(for: url)
        #expect(fromDisk.cacheType == .disk)
        #expect(fromDisk.image?.width == 64 && fromDisk.image?.height == 48)
        #expect(fromDisk.data == Data(harness.images["icon.png"]!))
        #expect(fromDisk.cacheKey == url.absoluteString)
        #expect(second.counters.decodes == 1 && second.counters.downloads == 0)
        #expect(harness.imageCache(second).imageFromMemory(forKey: url.absoluteString) != nil)
        let fromMemory = try await second.image(for: url)
        #expect(fromMemory.cacheType == .memory)
        #expect(second.counters.decodes == 1)
        #expect(harness.loader.starts(of: "icon.png") == 1)
    }

    @Test(
        "revalidate-stale: a fresh disk copy is used without a download; a stale one is revalidated by the task's flow")
    func revalidateStale() async throws {
        let harness = try GatedHarness(open: ["icon.png"])
        let url = harness.url("icon.png")
        _ = try await harness.manager.image(for: url, options: [.revalidateStale])
        #expect(await harness.becomesIdle())
        let fresh = try harness.makeManager()
        let cached = try await fresh.image(for: url, options: [.revalidateStale])
        #expect(cached.cacheType == .disk)
        #expect(cached.metrics.revalidation == nil)
        #expect(harness.loader.starts(of: "icon.png") == 1)
        // Every copy is stale at once: the gated loader's responses name no lifetime.
        var configuration = ImageManagerConfiguration()
        configuration.defaultFreshnessLifetime = .zero
        let stale = try harness.makeManager(configuration: configuration)
        let revalidated = try await stale.image(for: url, options: [.revalidateStale])
        #expect(revalidated.cacheType == .none)
        #expect(revalidated.metrics.revalidation == .modified)
        #expect(revalidated.image?.width == 64 && revalidated.image?.height == 48)
        #expect(harness.loader.starts(of: "icon.png") == 2)
        #expect(await harness.becomesIdle(stale))
    }

    @Test("a disk entry no coder decodes is a miss: the image is downloaded again and stored over it")
    func undecodableDiskEntryIsDownloadedAgain() async throws {
        let harness = try GatedHarness(open: ["icon.png"])
        let url = harness.url("icon.png")
        try harness.imageCache().disk.store(Data("not an image".utf8), extendedData: nil, forKey: url.absoluteString)
        let result = try await harness.manager.image(for: url)
        #expect(result.cacheType == .none)
        #expect(result.image?.width == 64)
        #expect(harness.manager.counters.decodes == 2 && harness.manager.counters.downloads == 1)
        #expect(await harness.becomesIdle())
        #expect(
            try harness.imageCache().disk.entry(forKey: url.absoluteString)?.data == Data(harness.images["icon.png"]!))
    }

    @Test(
        "from-cache-only misses with notInCache; a failed URL is refused until retry-failed; no loader: unsupportedURL")
    func refusals() async throws {
        let harness = try GatedHarness(open: ["not-an-image.png"])
        let recorder = Recorder()
        harness.manager.load(harness.url("icon.png"), options: [.fromCacheOnly], completed: recorder.completed)
        #expect(await recorder.wait(for: 1).first?.errorKind == .notInCache)
        let url = harness.url("not-an-image.png")
        await #expect(throws: ImageManagerError.self) { try await harness.manager.image(for: url) }
        do {
            _ = try await harness.manager.image(for: url)
            Issue.record("a failed URL loaded")
        } catch {
            #expect(error.kind == .blockedURL)
        }
        do {
            _ = try await harness.manager.image(for: URL(string: "ftp://example.invalid/a.png")!)
            Issue.record("an unserved scheme loaded")
        } catch {
            #expect(error.kind == .unsupportedURL)
        }
        #expect(harness.loader.starts(of: "not-an-image.png") == 1)
        #expect(harness.manager.counters.downloads == 1)
        #expect(await harness.becomesIdle())
    }

    @Test("an answer known before load returns (a refusal, a memory-only miss) completes after it, elsewhere")
    func neverCompletesInsideLoad() async throws {
        let harness = try GatedHarness()
        // Marks the calling thread while `load` runs: a completion that finds the mark ran inside it.
        let insideLoad = "webimage.test.inside-load"
        let completedInside = Atomic<Int>(0)
        let record: @Sendable (Recorder) -> @Sendable (Result<ImageResult, ImageManagerError>) -> Void = { recorder in
            { result in
                if Thread.current.threadDictionary[insideLoad] != nil { completedInside.add(1, ordering: .relaxed) }
                recorder.completed(result)
            }
        }
        func load(
            _ url: URL, options: ImageManagerOptions, context: ImageContext = ImageContext(), _ recorder: Recorder
        ) {
            Thread.current.threadDictionary[insideLoad] = true
            harness.manager.load(url, options: options, context: context, completed: record(recorder))
            Thread.current.threadDictionary[insideLoad] = nil
        }
        // No lookup: the loader check refuses at once.
        let refused = Recorder()
        load(URL(string: "ftp://example.invalid/a.png")!, options: [.fromLoaderOnly], refused)
        // Memory only: the image cache answers the lookup on the calling thread, a miss.
        var memoryOnly = ImageContext()
        memoryOnly.queryCacheType = .memory
        let missed = Recorder()
        load(harness.url("icon.png"), options: [.fromCacheOnly], context: memoryOnly, missed)
        #expect(await refused.wait(for: 1).first?.errorKind == .unsupportedURL)
        #expect(await missed.wait(for: 1).first?.errorKind == .notInCache)
        #expect(completedInside.load(ordering: .relaxed) == 0)
        #expect(await harness.becomesIdle())
    }

    @Test("the last request leaving ends the run: cancelled once, its download cancelled, the manager idle")
    func cancellationEndsTheRun() async throws {
        let harness = try GatedHarness()
        let recorders = [Recorder(), Recorder()]
        let operations = recorders.map {
            harness.manager.load(harness.url("photo.jpg"), completed: $0.completed)
        }
        #expect(await harness.loader.waitForStarts(1, of: "photo.jpg"))
        operations[0].cancel()
        #expect(await recorders[0].wait(for: 1).first?.errorKind == .cancelled)
        #expect(harness.manager.isRunning)
        operations[1].cancel()
        #expect(await recorders[1].wait(for: 1).first?.errorKind == .cancelled)
        #expect(await harness.becomesIdle())
        #expect(await harness.loader.waitForCancellations(1, of: "photo.jpg"))
        #expect(recorders.allSatisfy { $0.completions.count == 1 })
    }
}
