import Foundation
import Testing
import WebImageTestSupport

@testable import WebImageCore

/// SDWebImagePrefetcher's behaviour on the manager, against nginx (and, where a request must be
/// held, the gated loader).
@Suite("ImagePrefetcher", .serialized, .ownThread)
struct ImagePrefetcherTests {
    /// Collects a prefetch's progress reports and its completion.
    final class Reports: Sendable {
        let progress = TrackedMutex<[PrefetchProgress]>([])
        let completion = TrackedMutex<[PrefetchProgress]>([])

        var onProgress: @Sendable (PrefetchProgress) -> Void {
            { value in self.progress.withLock { $0.append(value) } }
        }
        var onCompletion: @Sendable (PrefetchProgress) -> Void {
            { value in self.completion.withLock { $0.append(value) } }
        }

        func waitForCompletion(seconds: Double = 120) async -> [PrefetchProgress] {
            let deadline = ContinuousClock.now + HangBound.scaled(.milliseconds(Int(seconds * 1000)))
            while completion.withLock({ $0.isEmpty }), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
            return completion.withLock { $0 }
        }
    }

    @Test("URLs ending on many threads at once report their counts in order, and the completion last")
    func progressInOrder() throws {
        let harness = try ManagerHarness()
        let reports = Reports()
        let count = 20_000
        let token = PrefetchToken(
            urls: Array(repeating: nil, count: count), prefetcher: ImagePrefetcher(manager: harness.manager),
            progress: reports.onProgress, completion: reports.onCompletion)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let error = ImageManagerError(.invalidURL, "not a URL")
            token.ended(index, failure: PrefetchFailure(index: index, url: nil, error: error, skipped: true))
        }
        #expect(reports.progress.withLock { $0.map(\.finished) } == Array(1...count))
        #expect(reports.completion.withLock { $0 } == [PrefetchProgress(finished: count, skipped: count, total: count)])
    }

    @Test("prefetched images go to the caches; counts of finished, skipped and failed; progress after each URL")
    func prefetchIntoCaches() async throws {
        let harness = try ManagerHarness()
        let prefetcher = ImagePrefetcher(manager: harness.manager)
        let names = ["icon.png", "wide.png", "photo.jpg", "other.jpg", "anim.gif"]
        let urls: [URL?] = names.map { harness.url($0) } + [nil, harness.url("missing.png")]
        let reports = Reports()
        let token = prefetcher.prefetch(urls, progress: reports.onProgress, completion: reports.onCompletion)
        let completion = await reports.waitForCompletion()
        #expect(completion == [PrefetchProgress(finished: 7, skipped: 1, failed: 1, total: 7)])
        #expect(reports.progress.withLock { $0.map(\.finished) } == Array(1...7))
        #expect(token.isFinished && token.progress.finished == 7)
        await harness.manager.waitUntilIdle()
        let cache = harness.imageCache()
        for name in names {
            #expect(try cache.disk.contains(harness.url(name).absoluteString))
            #expect(cache.imageFromMemory(forKey: harness.url(name).absoluteString) != nil)
        }
    }

    @Test("at most maxConcurrentPrefetchCount requests at once")
    func concurrencyLimit() async throws {
        let harness = try GatedHarness()
        let prefetcher = ImagePrefetcher(manager: harness.manager, maxConcurrentPrefetchCount: 2)
        let urls = ["photo.jpg", "progressive.jpg", "other.jpg", "wide.png"].map { harness.url($0) }
        let reports = Reports()
        prefetcher.prefetch(urls, completion: reports.onCompletion)
        // Two transfers held at their gates; the other two URLs wait in the prefetcher.
        #expect(await harness.loader.waitForStarts(2))
        var most = max(prefetcher.runningCount, harness.manager.downloader.activeCount)
        #expect(most == 2 && harness.loader.waitingCount == 2)
        harness.loader.openAll()
        while reports.completion.withLock({ $0.isEmpty }) {
            most = max(most, prefetcher.runningCount, harness.manager.downloader.activeCount)
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(most == 2)
        #expect(reports.completion.withLock { $0 } == [PrefetchProgress(finished: 4, total: 4)])
        #expect(harness.loader.startOrder.count == 4)
    }

    @Test("overlapping prefetches each complete with their own counts; an empty list completes at once")
    func overlappingAndEmpty() async throws {
        let harness = try ManagerHarness()
        let prefetcher = ImagePrefetcher(manager: harness.manager)
        let first = Reports()
        let second = Reports()
        prefetcher.prefetch(["icon.png", "photo.jpg"].map { harness.url($0) }, completion: first.onCompletion)
        prefetcher.prefetch(
            ["photo.jpg", "wide.png", "other.jpg"].map { harness.url($0) }, completion: second.onCompletion)
        #expect(await first.waitForCompletion() == [PrefetchProgress(finished: 2, total: 2)])
        #expect(await second.waitForCompletion() == [PrefetchProgress(finished: 3, total: 3)])
        #expect(harness.requests("photo.jpg", atLeast: 1).count == 1)

        let empty = Reports()
        let token = prefetcher.prefetch([], completion: empty.onCompletion)
        #expect(empty.completion.withLock { $0 } == [PrefetchProgress(total: 0)])
        #expect(token.isFinished)
    }

    @Test("cancelling one token stops it without its completion; the other completes; cancelAll stops all")
    func cancelling() async throws {
        // photo.jpg and progressive.jpg are held at their gates for the whole test.
        let harness = try GatedHarness(open: ["icon.png", "wide.png"])
        let prefetcher = ImagePrefetcher(manager: harness.manager, maxConcurrentPrefetchCount: 4)
        let cancelled = Reports()
        let kept = Reports()
        let held = ["photo.jpg", "progressive.jpg"]
        let token = prefetcher.prefetch(held.map { harness.url($0) }, completion: cancelled.onCompletion)
        prefetcher.prefetch(["icon.png", "wide.png"].map { harness.url($0) }, completion: kept.onCompletion)
        for name in held { #expect(await harness.loader.waitForStarts(1, of: name)) }
        token.cancel()
        #expect(await kept.waitForCompletion() == [PrefetchProgress(finished: 2, total: 2)])
        #expect(token.isCancelled)
        await harness.manager.waitUntilIdle()
        #expect(cancelled.completion.withLock { $0.isEmpty })
        for name in held { #expect(await harness.loader.waitForCancellations(1, of: name)) }

        let again = [Reports(), Reports()]
        let tokens = again.map { prefetcher.prefetch(held.map { harness.url($0) }, completion: $0.onCompletion) }
        for name in held { #expect(await harness.loader.waitForStarts(2, of: name)) }
        prefetcher.cancelAll()
        #expect(tokens.map(\.isCancelled) == [true, true])
        await harness.manager.waitUntilIdle()
        #expect(!harness.manager.isRunning)
        let completions = again.map { reports in reports.completion.withLock { $0.count } }
        #expect(completions == [0, 0])
        for name in held { #expect(await harness.loader.waitForCancellations(2, of: name)) }
    }
}
