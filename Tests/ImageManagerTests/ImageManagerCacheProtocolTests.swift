import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The manager over caches other than ``ImageCache``, through ``ImageCaching`` only: a cache
/// chain (``ImageCachesManager``) and a user cache that implements only the required methods.
@Suite("ImageManager through the ImageCaching protocol", .serialized, .ownThread)
struct ImageManagerCacheProtocolTests {
    /// A cache of its own that forwards the required methods to an ``ImageCache`` and takes
    /// the protocol's defaults for the rest (no extended data).
    struct ForwardingCache: ImageCaching {
        let inner: ImageCache
        func query(_ key: String, options: ImageCacheQuery) async throws -> ImageCacheResult? {
            try await inner.query(key, options: options)
        }
        func store(_ image: DecodedImage?, data: Data?, forKey key: String, cacheType: ImageCacheType) async throws {
            try await inner.store(image, data: data, forKey: key, cacheType: cacheType)
        }
        func remove(_ key: String, fromDisk: Bool) async throws { try await inner.remove(key, fromDisk: fromDisk) }
        func clearMemory() { inner.clearMemory() }
        func clearDisk() async throws { try await inner.clearDisk() }
        func contains(_ key: String) async throws -> ImageCacheType { try await inner.contains(key) }
    }

    /// A chain of two caches over fresh folders: `lower` first, `upper` (where stores go) last.
    static func chain(_ harness: ManagerHarness) throws -> (ImageCachesManager, ImageCache, [TemporaryDirectory]) {
        let folders = [try TemporaryDirectory(), try TemporaryDirectory()]
        let caches = try folders.map { folder in
            var configuration = ImageCacheConfiguration()
            configuration.directory = folder.path
            return try ImageCache(host: harness.host, coders: harness.manager.coders, configuration: configuration)
        }
        return (ImageCachesManager(caches: caches), caches[1], folders)
    }

    /// A ``ForwardingCache`` over an ``ImageCache`` in a fresh folder.
    static func forwarding(_ harness: ManagerHarness) throws -> (ForwardingCache, ImageCache, TemporaryDirectory) {
        let folder = try TemporaryDirectory()
        var configuration = ImageCacheConfiguration()
        configuration.directory = folder.path
        let inner = try ImageCache(host: harness.host, coders: harness.manager.coders, configuration: configuration)
        return (ForwardingCache(inner: inner), inner, folder)
    }

    /// A context whose image cache is `cache`.
    static func context(_ cache: any ImageCaching) -> ImageContext {
        var context = ImageContext()
        context.imageCache = cache
        return context
    }

    /// The fields of the last nginx log line for `name`: uri, accept, if-none-match, status.
    static func lastRequest(_ harness: ManagerHarness, _ name: String, count: Int) -> [Substring] {
        harness.requests(name, atLeast: count).last?.split(separator: "|", omittingEmptySubsequences: false) ?? []
    }

    @Test(
        "refresh-cached through a cache chain: the validators are stored with the bytes; a 304 ends with one completion"
    )
    func chainRevalidatesNotModified() async throws {
        let harness = try ManagerHarness()
        let (chain, upper, folders) = try Self.chain(harness)
        var context = ImageContext()
        context.imageCache = chain
        let url = harness.url("icon.png")
        _ = try await harness.manager.image(for: url, options: .waitStoreCache, context: context)
        let stored = try upper.disk.entry(forKey: url.absoluteString)
        #expect(stored.map { [UInt8]($0.data) } == harness.images["icon.png"])
        #expect(stored?.extendedData != nil)
        #expect(try await chain.extendedData(forKey: url.absoluteString) == stored?.extendedData)

        let recorder = Recorder()
        harness.manager.load(url, options: .refreshCached, context: context, completed: recorder.completed)
        _ = await recorder.wait(for: 1)
        await harness.manager.waitUntilIdle()
        #expect(recorder.completions.count == 1)
        #expect(recorder.completions.first?.value?.cacheType == .memory)
        let last = Self.lastRequest(harness, "icon.png", count: 2)
        #expect(harness.requests("icon.png", atLeast: 2).count == 2)
        #expect(last.count == 4 && last[2] != "-" && last[3] == "304", "\(last)")
        _ = folders
    }

    @Test(
        "refresh-cached through a cache chain: a changed image comes second and replaces the stored bytes and validators"
    )
    func chainRevalidatesModified() async throws {
        let harness = try ManagerHarness()
        let (chain, upper, folders) = try Self.chain(harness)
        var context = ImageContext()
        context.imageCache = chain
        let url = harness.url("icon.png")
        _ = try await harness.manager.image(for: url, options: .waitStoreCache, context: context)
        let before = try upper.disk.entry(forKey: url.absoluteString)?.extendedData
        try harness.replace("icon.png", with: harness.images["wide.png"]!)
        var events: [ImageResult] = []
        for try await event in harness.manager.images(
            for: url, options: [.refreshCached, .waitStoreCache], context: context)
        {
            if case .completed(let result) = event { events.append(result) }
        }
        #expect(events.map(\.cacheType) == [.memory, .none])
        #expect(events.map { $0.image?.width ?? 0 } == [64, 200])
        let last = Self.lastRequest(harness, "icon.png", count: 2)
        #expect(last.count == 4 && last[2] != "-" && last[3] == "200", "\(last)")
        let after = try upper.disk.entry(forKey: url.absoluteString)
        #expect(after.map { [UInt8]($0.data) } == harness.images["wide.png"])
        #expect(after?.extendedData != nil && after?.extendedData != before)
        _ = folders
    }

    @Test(
        "disk-only query through a cache chain: the disk answers although memory holds the image; memory is not filled")
    func chainDiskOnlyQuery() async throws {
        let harness = try ManagerHarness()
        let (chain, upper, folders) = try Self.chain(harness)
        var context = ImageContext()
        context.imageCache = chain
        let url = harness.url("icon.png")
        _ = try await harness.manager.image(for: url, options: .waitStoreCache, context: context)
        #expect(upper.imageFromMemory(forKey: url.absoluteString) != nil)
        var diskOnly = context
        diskOnly.queryCacheType = .disk
        let fromDisk = try await harness.manager.image(for: url, context: diskOnly)
        #expect(fromDisk.cacheType == .disk && fromDisk.image?.width == 64)
        #expect(fromDisk.data.map([UInt8].init) == harness.images["icon.png"])
        upper.clearMemory()
        _ = try await harness.manager.image(for: url, context: diskOnly)
        #expect(upper.imageFromMemory(forKey: url.absoluteString) == nil)
        var memoryOnly = context
        memoryOnly.queryCacheType = .memory
        #expect(try await harness.manager.image(for: url, context: memoryOnly).cacheType == .none)
        #expect(harness.requests("icon.png", atLeast: 2).count == 2)
        _ = folders
    }

    @Test("a cache with only the required methods: stores go to disk without validators; refresh downloads in full")
    func protocolDefaults() async throws {
        let harness = try ManagerHarness()
        let (cache, inner, folder) = try Self.forwarding(harness)
        let context = Self.context(cache)
        let url = harness.url("icon.png")
        _ = try await harness.manager.image(for: url, options: .waitStoreCache, context: context)
        let stored = try inner.disk.entry(forKey: url.absoluteString)
        #expect(stored.map { [UInt8]($0.data) } == harness.images["icon.png"])
        #expect(stored?.extendedData == nil)
        #expect(try await cache.extendedData(forKey: url.absoluteString) == nil)

        var events: [ImageResult] = []
        for try await event in harness.manager.images(
            for: url, options: [.refreshCached, .waitStoreCache], context: context)
        {
            if case .completed(let result) = event { events.append(result) }
        }
        #expect(events.map(\.cacheType) == [.memory, .none])
        let last = Self.lastRequest(harness, "icon.png", count: 2)
        #expect(last.count == 4 && last[2] == "-" && last[3] == "200", "\(last)")
        _ = folder
    }

    @Test(
        "a cache chain answers query-memory-data-sync and query-disk-data-sync before load returns; the disk hit fills memory"
    )
    func chainAnswersOnTheCallersThread() async throws {
        let harness = try ManagerHarness()
        let (chain, upper, folders) = try Self.chain(harness)
        let context = Self.context(chain)
        let url = harness.url("icon.png")
        _ = try await harness.manager.image(for: url, options: .waitStoreCache, context: context)
        let fromMemory = Recorder()
        harness.manager.load(url, options: .queryMemoryDataSync, context: context, completed: fromMemory.completed)
        #expect(fromMemory.completions.count == 1)
        #expect(fromMemory.completions.first?.value?.cacheType == .memory)

        upper.clearMemory()
        let fromDisk = Recorder()
        harness.manager.load(url, options: .queryDiskDataSync, context: context, completed: fromDisk.completed)
        #expect(fromDisk.completions.count == 1)
        let hit = fromDisk.completions.first?.value
        #expect(hit?.cacheType == .disk && hit?.image?.width == 64)
        #expect(hit?.data.map([UInt8].init) == harness.images["icon.png"])
        #expect(upper.imageFromMemory(forKey: url.absoluteString)?.width == 64)
        await harness.manager.waitUntilIdle()
        #expect(harness.requests("icon.png", atLeast: 1).count == 1)
        _ = folders
    }

    @Test(
        "a cache with only the required methods: query-memory-data reads the stored bytes; a disk hit is decoded as the request says (all frames)"
    )
    func protocolDefaultsReadTheStoredBytes() async throws {
        let harness = try ManagerHarness()
        let (cache, inner, folder) = try Self.forwarding(harness)
        let context = Self.context(cache)
        let icon = harness.url("icon.png")
        _ = try await harness.manager.image(for: icon, options: .waitStoreCache, context: context)
        let memoryHit = try await harness.manager.image(for: icon, options: .queryMemoryData, context: context)
        #expect(memoryHit.cacheType == .memory)
        #expect(memoryHit.data.map([UInt8].init) == harness.images["icon.png"])

        let animation = harness.url("anim.gif")
        let downloaded = try await harness.manager.image(
            for: animation, options: [.preloadAllFrames, .waitStoreCache], context: context)
        inner.clearMemory()
        let diskHit = try await harness.manager.image(for: animation, options: .preloadAllFrames, context: context)
        #expect(diskHit.cacheType == .disk)
        #expect(diskHit.frameCount == downloaded.frameCount && diskHit.frameCount > 1)
        #expect(diskHit.animation?.frames.count == downloaded.frameCount)
        #expect(harness.requests("anim.gif", atLeast: 1).count == 1)
        _ = folder
    }
}
