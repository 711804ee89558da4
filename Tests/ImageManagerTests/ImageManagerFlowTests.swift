import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The flow of issue 13 step by step against a real nginx and the real plugins.
@Suite("ImageManager flow", .serialized, .ownThread)
struct ImageManagerFlowTests {
    @Test("first load downloads, decodes and stores; then memory; then a new manager finds it on disk")
    func loadThenMemoryThenDisk() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("photo.jpg")
        let first = try await harness.manager.image(for: url)
        #expect(first.cacheType == .none)
        #expect(first.image?.width == 640 && first.image?.height == 480)
        #expect(first.data.map([UInt8].init) == harness.images["photo.jpg"])
        #expect(first.cacheKey == url.absoluteString)
        #expect(first.metrics.load?.bytesReceived == UInt64(harness.images["photo.jpg"]!.count))
        #expect(harness.manager.counters.decodes == 1)
        await harness.manager.waitUntilIdle()
        #expect(try harness.imageCache().disk.contains(url.absoluteString))

        let second = try await harness.manager.image(for: url)
        #expect(second.cacheType == .memory)
        #expect(second.image?.width == 640)
        #expect(second.data == nil)

        let other = try harness.makeManager()
        let third = try await other.image(for: url)
        #expect(third.cacheType == .disk)
        #expect(third.data.map([UInt8].init) == harness.images["photo.jpg"])
        #expect(third.image?.height == 480)
        #expect(harness.requests("photo.jpg", atLeast: 1).count == 1)
    }

    @Test("a nil, empty or unparseable URL fails at once with invalidURL")
    func invalidURLs() async throws {
        let harness = try ManagerHarness()
        for text in [nil, "", "not a url", "//no-scheme/x.png"] as [String?] {
            do {
                _ = try await harness.manager.image(for: text)
                Issue.record("\(text ?? "nil") loaded")
            } catch {
                #expect(error.kind == .invalidURL)
            }
        }
        let recorder = Recorder()
        let operation = harness.manager.load(nil as URL?, completed: recorder.completed)
        let results = await recorder.wait(for: 1)
        #expect(results.count == 1 && results[0].errorKind == .invalidURL)
        #expect(operation.isFinished)
        #expect(harness.manager.counters.downloads == 0)
    }

    @Test("a 404 puts the URL in the failed list; it is refused until retryFailed, and a success removes it")
    func failedURLList() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("missing.png")
        await #expect(throws: ImageManagerError.self) { _ = try await harness.manager.image(for: url) }
        do {
            _ = try await harness.manager.image(for: url)
            Issue.record("a blocked URL loaded")
        } catch {
            #expect(error.kind == .blockedURL)
        }
        #expect(harness.requests("missing.png", atLeast: 1).count == 1)
        do {
            _ = try await harness.manager.image(for: url, options: .retryFailed)
        } catch {
            #expect(error.kind == .loadFailed)
            #expect(error.loadingError?.statusCode == 404)
        }
        #expect(harness.requests("missing.png", atLeast: 2).count == 2)
        // The file appears: a retry succeeds and unblocks the URL.
        try harness.replace("missing.png", with: harness.images["icon.png"]!)
        let loaded = try await harness.manager.image(for: url, options: [.retryFailed, .fromLoaderOnly])
        #expect(loaded.image?.width == 64)
        #expect(!harness.manager.failedURLs.contains(url.absoluteString))
    }

    @Test("5xx, connection errors and cancellations do not block a URL")
    func transientFailuresDoNotBlock() async throws {
        let harness = try ManagerHarness()
        let error500 = URL(string: "\(harness.nginx.http)/error")!
        for _ in 0..<2 {
            do {
                _ = try await harness.manager.image(for: error500)
            } catch {
                #expect(error.kind == .loadFailed)
                #expect(error.loadingError?.statusCode == 500)
            }
        }
        #expect(harness.requests("/error", atLeast: 2).count == 2)
        let closed = URL(string: "http://127.0.0.1:\(try LoopbackPort.free())/x.png")!
        for _ in 0..<2 {
            do {
                _ = try await harness.manager.image(for: closed)
            } catch {
                #expect(error.kind == .loadFailed)
                #expect(error.loadingError?.kind == .networkError)
            }
        }
        #expect(harness.manager.failedURLs.count == 0)
    }

    @Test("bytes no coder decodes fail with decodeFailed, are not cached, and block the URL")
    func decodeFailure() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("not-an-image.png")
        do {
            _ = try await harness.manager.image(for: url)
            Issue.record("text decoded")
        } catch {
            #expect(error.kind == .decodeFailed)
            #expect(error.codingError?.kind == .unsupportedFormat)
        }
        await harness.manager.waitUntilIdle()
        #expect(try !harness.imageCache().disk.contains(url.absoluteString))
        #expect(harness.manager.failedURLs.contains(url.absoluteString))
    }

    @Test("from-cache-only never downloads; from-loader-only never queries")
    func cacheOnlyAndLoaderOnly() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("icon.png")
        do {
            _ = try await harness.manager.image(for: url, options: .fromCacheOnly)
            Issue.record("a miss loaded")
        } catch {
            #expect(error.kind == .notInCache)
        }
        #expect(harness.requests("icon.png", atLeast: 0).isEmpty)
        _ = try await harness.manager.image(for: url, options: .waitStoreCache)
        let cached = try await harness.manager.image(for: url, options: .fromCacheOnly)
        #expect(cached.cacheType == .memory)
        let queries = harness.manager.counters.cacheQueries
        let fresh = try await harness.manager.image(for: url, options: .fromLoaderOnly)
        #expect(fresh.cacheType == .none)
        #expect(harness.manager.counters.cacheQueries == queries)
        #expect(harness.requests("icon.png", atLeast: 2).count == 2)
    }

    @Test("refresh-cached: cached image first, then a conditional request; a 304 ends with no second completion")
    func refreshNotModified() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("icon.png")
        _ = try await harness.manager.image(for: url, options: .waitStoreCache)
        let recorder = Recorder()
        let operation = harness.manager.load(url, options: .refreshCached, completed: recorder.completed)
        _ = await recorder.wait(for: 1)
        await harness.manager.waitUntilIdle()
        let results = recorder.completions
        #expect(results.count == 1)
        #expect(results.first?.value?.cacheType == .memory)
        #expect(operation.isFinished)
        let log = harness.requests("icon.png", atLeast: 2)
        #expect(log.count == 2)
        let last = log.last?.split(separator: "|", omittingEmptySubsequences: false) ?? []
        // nginx logs the If-None-Match sent (the stored ETag) and the 304 answer.
        #expect(last.count == 4 && last[2] != "-" && last[3] == "304", "\(log)")
    }

    @Test("refresh-cached: a changed image is delivered second and replaces the cached one")
    func refreshModified() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("icon.png")
        _ = try await harness.manager.image(for: url, options: .waitStoreCache)
        try harness.replace("icon.png", with: harness.images["wide.png"]!)
        var events: [ImageResult] = []
        for try await event in harness.manager.images(for: url, options: [.refreshCached, .waitStoreCache]) {
            if case .completed(let result) = event { events.append(result) }
        }
        #expect(events.map(\.cacheType) == [.memory, .none])
        #expect(events.map { $0.image?.width ?? 0 } == [64, 200])
        let again = try await harness.manager.image(for: url)
        #expect(again.cacheType == .memory && again.image?.width == 200)
        let entry = try harness.imageCache().disk.entry(forKey: url.absoluteString)
        #expect(entry.map { [UInt8]($0.data) } == harness.images["wide.png"])
        #expect(entry?.extendedData != nil)
    }

    @Test(
        "revalidate-stale: a fresh copy is used; a stale one is revalidated (304: used, renewed; new: replaced, transformed)"
    )
    func revalidateStale() async throws {
        var alwaysStale = ImageManagerConfiguration()
        alwaysStale.defaultFreshnessLifetime = .zero
        let harness = try ManagerHarness(configuration: alwaysStale)
        let url = harness.url("icon.png")
        var diskOnly = ImageContext()
        diskOnly.queryCacheType = .disk
        diskOnly.originalQueryCacheType = .disk
        let options: ImageManagerOptions = [.revalidateStale, .waitStoreCache]
        let first = try await harness.manager.image(for: url, options: options, context: diskOnly)
        #expect(first.cacheType == .none && first.metrics.revalidation == nil)
        let storedAt = try Self.storedAt(harness, url)
        // Fresh for the default lifetime (an hour): used without a request.
        let fresh = try await harness.makeManager().image(for: url, options: options, context: diskOnly)
        #expect(fresh.cacheType == .disk && fresh.metrics.revalidation == nil)
        // Stale at once with a lifetime of 0: a conditional request, answered 304; the copy is
        // used and stored again.
        let current = try await harness.manager.image(for: url, options: options, context: diskOnly)
        #expect(current.cacheType == .disk && current.metrics.revalidation == .notModified)
        #expect(current.image?.width == 64 && current.data.map([UInt8].init) == harness.images["icon.png"])
        var log = harness.requests("icon.png", atLeast: 2)
        #expect(log.count == 2)
        // nginx logs the If-None-Match sent (the stored ETag) and the 304 answer.
        let fields = log.last?.split(separator: "|", omittingEmptySubsequences: false) ?? []
        #expect(fields.count == 4 && fields[2] != "-" && fields[3] == "304", "\(log)")
        #expect(try Self.storedAt(harness, url) > storedAt)
        // The file changes: the revalidation gets the new image, which replaces the copy.
        try harness.replace("icon.png", with: harness.images["wide.png"]!)
        let changed = try await harness.manager.image(for: url, options: options, context: diskOnly)
        #expect(changed.cacheType == .none && changed.metrics.revalidation == .modified)
        #expect(changed.image?.width == 200)
        let entry = try harness.imageCache().disk.entry(forKey: url.absoluteString)
        #expect(entry.map { [UInt8]($0.data) } == harness.images["wide.png"])
        // With a transformer: the stale original is revalidated, then transformed.
        var flipping = diskOnly
        flipping.transformer = FlippingTransformer(horizontal: true, vertical: false)
        let flipped = try await harness.manager.image(for: url, options: options, context: flipping)
        #expect(flipped.cacheType == .disk && flipped.metrics.revalidation == .notModified)
        #expect(flipped.image?.width == 200 && flipped.cacheKey != url.absoluteString)
        log = harness.requests("icon.png", atLeast: 4)
        #expect(log.map { $0.split(separator: "|").last ?? "" } == ["200", "304", "200", "304"], "\(log)")
    }

    @Test("revalidate-stale: a response with Cache-Control: no-store is not kept on disk")
    func revalidateStaleNoStore() async throws {
        let harness = try ManagerHarness()
        let url = URL(string: "\(harness.nginx.http)/no-store/icon.png")!
        let first = try await harness.manager.image(for: url, options: [.revalidateStale, .waitStoreCache])
        #expect(first.image?.width == 64)
        #expect(try !harness.imageCache().disk.contains(url.absoluteString))
        // Without the option it is kept, as before.
        _ = try await harness.manager.image(for: url, options: [.waitStoreCache, .fromLoaderOnly])
        #expect(try harness.imageCache().disk.contains(url.absoluteString))
    }

    /// When the disk copy of `url` was stored, from its extended data (seconds since 1970).
    static func storedAt(_ harness: ManagerHarness, _ url: URL) throws -> Double {
        let entry = try #require(try harness.imageCache().disk.entry(forKey: url.absoluteString))
        let lines = String(decoding: try #require(entry.extendedData), as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.count == 5 ? Double(lines[3]) : nil)
    }

    @Test("wait-store-cache completes after the disk store; without it the completion does not wait")
    func waitStoreCache() async throws {
        let harness = try ManagerHarness()
        let memory = try harness.host.adapter(PluginMemoryCacheBackend.self, named: "memory").make()
        var diskOptions = CacheConfiguration()
        diskOptions["directory"] = harness.cacheFolder.path
        let gated = GatedDiskCache(
            try harness.host.adapter(PluginDiskCacheBackend.self, named: "disk").open(diskOptions))
        let cache = ImageCache(memory: memory, disk: gated, coders: harness.manager.coders)
        var context = ImageContext()
        context.imageCache = cache

        let recorder = Recorder()
        harness.manager.load(harness.url("icon.png"), context: context, completed: recorder.completed)
        let early = await recorder.wait(for: 1)
        #expect(early.count == 1 && gated.storeCount == 0)

        let waiting = Recorder()
        harness.manager.load(
            harness.url("wide.png"), options: .waitStoreCache, context: context, completed: waiting.completed)
        try await Task.sleep(for: .milliseconds(300))
        #expect(waiting.completions.isEmpty)
        gated.open()
        let late = await waiting.wait(for: 1)
        #expect(late.count == 1 && gated.storeCount >= 1)
        #expect(try gated.contains(harness.url("wide.png").absoluteString))
        await harness.manager.waitUntilIdle()
    }

    @Test(
        "a thumbnail is decoded at its size, cached under the thumbnail key without data; the disk keeps the full bytes"
    )
    func thumbnail() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("photo.jpg")
        var context = ImageContext()
        context.thumbnail = ThumbnailSize(width: 100, height: 100)
        let result = try await harness.manager.image(for: url, options: .waitStoreCache, context: context)
        let thumbnailKey = CacheKeys.thumbnailKey(url.absoluteString, size: context.thumbnail!)
        #expect(result.image?.width == 100 && result.image?.height == 75)
        #expect(result.data == nil)
        #expect(result.cacheKey == thumbnailKey)
        let cache = harness.imageCache()
        #expect(cache.imageFromMemory(forKey: thumbnailKey)?.width == 100)
        #expect(cache.imageFromMemory(forKey: url.absoluteString) == nil)
        #expect(
            try cache.disk.entry(forKey: url.absoluteString).map { [UInt8]($0.data) } == harness.images["photo.jpg"])

        let other = try harness.makeManager()
        let fromDisk = try await other.image(for: url, context: context)
        #expect(fromDisk.cacheType == .disk && fromDisk.image?.width == 100 && fromDisk.data == nil)
        var full = ImageContext()
        full.thumbnail = nil
        let fullSize = try await other.image(for: url, context: full)
        #expect(fullSize.cacheType == .disk && fullSize.image?.width == 640)
        #expect(harness.requests("photo.jpg", atLeast: 1).count == 1)
    }

    @Test(
        "the flipped TestImage.png and the URL TestImage-Flip(h).png keep their own pixels, in either order, from memory and disk",
        arguments: [true, false])
    func transformedKeysNoURLSpells(flippedFirst: Bool) async throws {
        let harness = try ManagerHarness()
        try harness.replace("TestImage.png", with: harness.images["icon.png"]!)
        try harness.replace("TestImage-Flip(h).png", with: harness.images["wide.png"]!)
        let coders = harness.manager.coders
        let flip = FlippingTransformer(horizontal: true, vertical: false)
        let flipped = try flip.transform(try coders.decode(harness.images["icon.png"]!).pixels).packedBytes()
        let plain = try coders.decode(harness.images["wide.png"]!).pixels.packedBytes()
        var context = ImageContext()
        context.transformer = flip
        /// Loads both through `manager` in the order of the test, each with its own pixels.
        func loadBoth(_ manager: ImageManager, from cacheType: ImageCacheType) async throws {
            for loadsFlipped in flippedFirst ? [true, false] : [false, true] {
                let result =
                    loadsFlipped
                    ? try await manager.image(
                        for: harness.url("TestImage.png"), options: .waitStoreCache, context: context)
                    : try await manager.image(for: harness.url("TestImage-Flip(h).png"), options: .waitStoreCache)
                let image = try #require(result.image)
                #expect(result.cacheType == cacheType)
                #expect(
                    result.cacheKey
                        == (loadsFlipped
                            ? harness.url("TestImage.png").absoluteString + " Flip(h)"
                            : harness.url("TestImage-Flip(h).png").absoluteString))
                #expect([image.width, image.height] == (loadsFlipped ? [64, 48] as [Int] : [200, 100]))
                #expect(image.pixels.packedBytes() == (loadsFlipped ? flipped : plain))
            }
        }
        try await loadBoth(harness.manager, from: .none)
        try await loadBoth(harness.manager, from: .memory)
        try await loadBoth(try harness.makeManager(), from: .disk)
        #expect(harness.requests("TestImage.png", atLeast: 1).count == 1)
        #expect(harness.requests("TestImage-Flip(h).png", atLeast: 1).count == 1)
    }

    @Test(
        "over a read-only disk cache: the hit is served, the miss delivered, its failed store counted with the reason")
    func failedStoresAreCounted() async throws {
        let harness = try ManagerHarness()
        _ = try await harness.manager.image(for: harness.url("icon.png"), options: .waitStoreCache)
        let readOnly = try MountedFolder.readOnlyView(of: harness.cacheFolder.path)
        var cacheConfiguration = ImageCacheConfiguration()
        cacheConfiguration.directory = readOnly.path
        let manager = try ImageManager(host: harness.host, cacheConfiguration: cacheConfiguration)
        let hit = try await manager.image(for: harness.url("icon.png"), options: .waitStoreCache)
        #expect(hit.cacheType == .disk && hit.image?.width == 64)
        #expect(manager.counters.storeFailures == 0 && manager.counters.firstStoreFailure == nil)
        let miss = try await manager.image(for: harness.url("photo.jpg"), options: .waitStoreCache)
        #expect(miss.cacheType == .none && miss.image?.width == 640)
        #expect(manager.counters.storeFailures == 1)
        #expect(
            manager.counters.firstStoreFailure
                == CacheError(.ioError, "cannot create a file in \(readOnly.path)/default: Read-only file system"))
    }

    @Test(
        "a transformer runs after decoding; the result is stored under the transformed key, the original on disk only")
    func transformAndStore() async throws {
        let harness = try ManagerHarness()
        let url = harness.url("photo.jpg")
        var context = ImageContext()
        let chain = TransformerPipeline([
            try ResizingTransformer(width: 32, height: 32, scaleMode: .fill),
            FlippingTransformer(horizontal: true, vertical: false),
        ])
        context.transformer = chain
        let result = try await harness.manager.image(for: url, options: .waitStoreCache, context: context)
        let key = CacheKeys.transformedKey(url.absoluteString, transformerKey: chain.transformerKey)
        #expect(result.image?.width == 32 && result.image?.height == 32)
        #expect(result.data == nil)
        #expect(result.cacheKey == key)
        #expect(harness.manager.counters.transforms == 2)
        let cache = harness.imageCache()
        #expect(cache.imageFromMemory(forKey: key)?.width == 32)
        #expect(cache.imageFromMemory(forKey: url.absoluteString) == nil)
        #expect(try cache.disk.contains(key))
        #expect(
            try cache.disk.entry(forKey: url.absoluteString).map { [UInt8]($0.data) } == harness.images["photo.jpg"])

        // A new manager finds the transformed image on disk (already transformed: no transform).
        let other = try harness.makeManager()
        let again = try await other.image(for: url, context: context)
        #expect(again.cacheType == .disk && again.image?.width == 32 && other.counters.transforms == 0)

        // Another transformer: the transformed image is missing, the original is on disk: no download.
        var blur = ImageContext()
        blur.transformer = try BlurTransformer(radius: 2)
        let blurred = try await other.image(for: url, context: blur)
        #expect(blurred.cacheType == .disk && blurred.image?.width == 640 && other.counters.transforms == 1)
        #expect(harness.requests("photo.jpg", atLeast: 1).count == 1)
    }

    @Test("progressive-load delivers partial images while the bytes arrive; only the final image is cached")
    func progressive() async throws {
        let harness = try ManagerHarness()
        let url = harness.slowURL("progressive.jpg")
        var partials: [DecodedImage] = []
        var finals: [ImageResult] = []
        for try await event in harness.manager.images(for: url, options: [.progressiveLoad, .waitStoreCache]) {
            switch event {
            case .partial(let image): partials.append(image)
            case .completed(let result): finals.append(result)
            case .progress: break
            }
        }
        #expect(
            !partials.isEmpty,
            "\(harness.images["progressive.jpg"]!.count) bytes, \(harness.manager.counters.partialDecodes) partial decodes"
        )
        #expect(partials.allSatisfy { $0.isPartial && $0.width == 320 && $0.height == 240 })
        #expect(finals.count == 1 && finals[0].image?.isPartial == false)
        #expect(harness.manager.counters.partialDecodes >= partials.count)
        #expect(harness.imageCache().imageFromMemory(forKey: url.absoluteString)?.isPartial == false)
    }

    /// A cache serializer whose release a weak reference observes.
    final class ObservedSerializer: CacheSerializer {
        func cacheData(for image: DecodedImage, originalData: Data?, key: String) -> Data? { originalData }
    }

    @Test("a finished request keeps nothing of itself: its context is released once it and its stores end")
    func finishedRequestReleasesItsContext() async throws {
        // The request's task lets go of its frame a moment after its caller resumed: the
        // release is awaited (5 s at most), where a kept context never comes.
        let harness = try ManagerHarness()
        weak var released: ObservedSerializer?
        do {
            let serializer = ObservedSerializer()
            released = serializer
            var context = ImageContext()
            context.cacheSerializer = serializer
            context.thumbnail = ThumbnailSize(width: 16, height: 16)
            let result = try await harness.manager.image(for: harness.url("photo.jpg"), context: context)
            #expect(result.cacheType == .none)
        }
        await harness.manager.waitUntilIdle()
        let deadline = ContinuousClock.now + HangBound.scaled(.seconds(5))
        while released != nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(released == nil)
        #expect(harness.requests("photo.jpg", atLeast: 1).count == 1)
    }

    @Test("cancelling during the disk query ends with cancelled at once and never downloads")
    func cancellationDuringTheCacheQuery() async throws {
        let harness = try ManagerHarness()
        let memory = try harness.host.adapter(PluginMemoryCacheBackend.self, named: "memory").make()
        var diskOptions = CacheConfiguration()
        diskOptions["directory"] = harness.cacheFolder.path
        let gated = GatedDiskCache(
            try harness.host.adapter(PluginDiskCacheBackend.self, named: "disk").open(diskOptions), gatesQueries: true)
        var context = ImageContext()
        context.imageCache = ImageCache(memory: memory, disk: gated, coders: harness.manager.coders)

        let recorder = Recorder()
        let operation = harness.manager.load(harness.url("icon.png"), context: context, completed: recorder.completed)
        let deadline = ContinuousClock.now + HangBound.scaled(.seconds(120))
        while gated.queryCount == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(gated.queryCount == 1)
        operation.cancel()
        let results = await recorder.wait(for: 1)
        #expect(results.count == 1 && results.first?.errorKind == .cancelled)
        gated.open()
        await harness.manager.waitUntilIdle()
        #expect(recorder.completions.count == 1)
        #expect(harness.manager.counters.downloads == 0)
        #expect(harness.requests("icon.png", atLeast: 0).isEmpty)
    }

    @Test("cancelling the calling task, or the operation, ends the request with cancelled once")
    func cancellation() async throws {
        // Both downloads are held at the gated loader's gates: the cancels come while they run.
        let harness = try GatedHarness()
        let url = harness.url("progressive.jpg")
        let task = Task { try await harness.manager.image(for: url) }
        #expect(await harness.loader.waitForStarts(1, of: "progressive.jpg"))
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("a cancelled request loaded")
        } catch let error as ImageManagerError {
            #expect(error.kind == .cancelled)
        }
        let recorder = Recorder()
        let operation = harness.manager.load(harness.url("photo.jpg"), completed: recorder.completed)
        #expect(await harness.loader.waitForStarts(1, of: "photo.jpg"))
        operation.cancel()
        operation.cancel()
        let results = await recorder.wait(for: 1)
        try await Task.sleep(for: .milliseconds(100))
        #expect(recorder.completions.count == 1 && results.first?.errorKind == .cancelled)
        #expect(operation.isCancelled)
        await harness.manager.waitUntilIdle()
        #expect(!harness.manager.isRunning)
        #expect(harness.manager.downloader.activeCount == 0)
        #expect(await harness.loader.waitForCancellations(1, of: "progressive.jpg"))
        #expect(await harness.loader.waitForCancellations(1, of: "photo.jpg"))
    }
}
