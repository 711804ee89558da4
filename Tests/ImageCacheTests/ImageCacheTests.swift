import Foundation
import Testing
import WebImageCore

/// SDImageCache's behaviour over the real memory and disk plugins.
@Suite struct ImageCacheTests {
    @Test func storingWithoutDataEncodesAlphaAsPNGAndOpaqueAsJPEG() async throws {
        let fixture = try ImageCacheFixture()
        try await fixture.cache.store(try testImage(alpha: 128), data: nil, forKey: "translucent")
        try await fixture.cache.store(try testImage(), data: nil, forKey: "opaque")
        try await fixture.cache.store(try testImage(format: "png"), data: nil, forKey: "own-format")
        #expect(try fixture.disk.entry(forKey: "translucent")?.data.prefix(4) == pngMagic)
        #expect(try fixture.disk.entry(forKey: "opaque")?.data.prefix(3) == jpegMagic)
        #expect(try fixture.disk.entry(forKey: "own-format")?.data.prefix(4) == pngMagic)
        var animated = try testImage()
        animated.traits.insert(.animated)
        try await fixture.cache.store(animated, data: nil, forKey: "animated")
        #expect(try fixture.disk.entry(forKey: "animated")?.data.prefix(6) == gifMagic)
    }

    @Test func theCacheTypeSaysWhereAnImageGoes() async throws {
        let fixture = try ImageCacheFixture()
        let image = try testImage(format: "png")
        try await fixture.cache.store(image, data: nil, forKey: "memory", cacheType: .memory)
        try await fixture.cache.store(image, data: nil, forKey: "disk", cacheType: .disk)
        try await fixture.cache.store(image, data: nil, forKey: "all", cacheType: .all)
        try await fixture.cache.store(image, data: nil, forKey: "none", cacheType: .none)
        #expect(try await fixture.cache.contains("memory") == .memory)
        #expect(try fixture.disk.contains("memory") == false)
        #expect(try await fixture.cache.contains("disk") == .disk)
        #expect(try await fixture.cache.contains("all") == .memory)
        #expect(try fixture.disk.contains("all"))
        #expect(try await fixture.cache.contains("none") == .none)
    }

    @Test func memoryIsWrittenAtOnceAndDiskCompletesLater() async throws {
        let fixture = try ImageCacheFixture()
        let counter = CallCounter()
        let done = AsyncStream<Void>.makeStream()
        fixture.cache.store(try testImage(format: "png"), data: nil, forKey: "k") { error in
            counter.record(error.map { "\($0)" } ?? "ok")
            done.continuation.finish()
        }
        #expect(fixture.cache.imageFromMemory(forKey: "k")?.width == 40)
        for await _ in done.stream {}
        #expect(counter.calls == 1)
        #expect(counter.lastResult == "ok")
        #expect(try fixture.disk.contains("k"))
    }

    @Test func queriesAskMemoryThenDiskAndPutDiskHitsInMemory() async throws {
        let fixture = try ImageCacheFixture()
        try await fixture.cache.store(try testImage(format: "png"), data: nil, forKey: "k")
        #expect(try await fixture.cache.query("k")?.cacheType == .memory)
        fixture.cache.clearMemory()
        #expect(fixture.cache.imageFromMemory(forKey: "k") == nil)
        #expect(try await fixture.cache.query("k", options: ImageCacheQuery(memoryOnly: true)) == nil)
        let fromDisk = try #require(try await fixture.cache.query("k"))
        #expect(fromDisk.cacheType == .disk)
        #expect(fromDisk.data?.prefix(4) == pngMagic)
        #expect(fromDisk.image.width == 40 && fromDisk.image.height == 30)
        #expect(fromDisk.image.pixels.channels(x: 3, y: 2) == [15, 14, 90, 255])
        #expect(fixture.cache.imageFromMemory(forKey: "k")?.width == 40)
        #expect(try await fixture.cache.query("missing") == nil)
    }

    @Test func aThumbnailQueryCachesTheThumbnailUnderItsKeyAndKeepsTheFullEntry() async throws {
        let fixture = try ImageCacheFixture()
        let full = try testImage(width: 400, height: 300, format: "png")
        try await fixture.cache.store(full, data: nil, forKey: "http://h/i.png", cacheType: .disk)
        let diskBytes = try fixture.disk.entry(forKey: "http://h/i.png")?.data
        let size = ThumbnailSize(width: 100, height: 100)
        let result = try #require(
            try await fixture.cache.query("http://h/i.png", options: ImageCacheQuery(thumbnail: size)))
        #expect(result.image.width == 100 && result.image.height == 75)
        #expect(fixture.cache.imageFromMemory(forKey: "http://h/i.png Thumbnail(100x100,1)")?.width == 100)
        #expect(fixture.cache.imageFromMemory(forKey: "http://h/i.png") == nil)
        #expect(try fixture.disk.entry(forKey: "http://h/i.png")?.data == diskBytes)
    }

    @Test func largeImagesAreScaledDownToThePixelLimit() async throws {
        let fixture = try ImageCacheFixture()
        try await fixture.cache.store(
            try testImage(width: 400, height: 300, format: "png"), data: nil, forKey: "k", cacheType: .disk)
        let result = try #require(try await fixture.cache.query("k", options: ImageCacheQuery(maxPixelCount: 12_000)))
        #expect(result.image.width == 125 && result.image.height == 94)
        #expect(result.image.width * result.image.height <= 12_000)
    }

    @Test func undecodableDiskDataIsAMiss() async throws {
        let fixture = try ImageCacheFixture()
        try await fixture.cache.store(nil, data: Data("not an image".utf8), forKey: "k")
        #expect(try await fixture.cache.query("k") == nil)
    }

    @Test func aCancelledQueryCompletesExactlyOnce() async throws {
        let fixture = try ImageCacheFixture()
        try await fixture.cache.store(try testImage(format: "png"), data: nil, forKey: "k", cacheType: .disk)
        let counter = CallCounter()
        let operation = fixture.cache.query("k") { result in
            counter.record((try? result.get()) == nil ? "failure or miss" : "hit")
        }
        operation.cancel()
        operation.cancel()
        #expect(operation.isFinished)
        try await Task.sleep(for: .milliseconds(200))
        #expect(counter.calls == 1)
        #expect(counter.lastResult == "failure or miss")

        let finished = CallCounter()
        let done = AsyncStream<Void>.makeStream()
        let completed = fixture.cache.query("k") { result in
            finished.record((try? result.get())??.cacheType == .disk ? "disk" : "other")
            done.continuation.finish()
        }
        for await _ in done.stream {}
        completed.cancel()
        #expect(finished.calls == 1)
        #expect(finished.lastResult == "disk")
    }

    @Test func removingClearingAndTotals() async throws {
        let fixture = try ImageCacheFixture()
        for key in ["a", "b", "c"] {
            try await fixture.cache.store(nil, data: Data(repeating: 1, count: 100), forKey: key)
        }
        #expect(try await fixture.cache.diskTotals().count == 3)
        #expect(try await fixture.cache.diskTotals().bytes == 3 * 132)
        try await fixture.cache.store(try testImage(format: "png"), data: nil, forKey: "a")
        try await fixture.cache.remove("a", fromDisk: false)
        #expect(try await fixture.cache.contains("a") == .disk)
        try await fixture.cache.remove("a")
        #expect(try await fixture.cache.contains("a") == .none)
        #expect(fixture.cache.path(forKey: "b.png")?.hasSuffix(".png") == true)
        try await fixture.cache.clearDisk()
        #expect(try await fixture.cache.diskTotals().count == 0)
        try await fixture.cache.removeExpired()
    }
}

/// Several caches behind one, with SDWebImage's policies.
@Suite struct ImageCachesManagerTests {
    @Test func policiesChooseTheCaches() async throws {
        let low = try ImageCacheFixture(namespace: "low")
        let high = try ImageCacheFixture(namespace: "high")
        let image = try testImage(format: "png")
        let highestOnly = ImageCachesManager(caches: [low.cache, high.cache])
        try await highestOnly.store(image, data: nil, forKey: "k")
        #expect(try await high.cache.contains("k") == .memory)
        #expect(try await low.cache.contains("k") == .none)

        try await low.cache.store(image, data: nil, forKey: "low-only")
        #expect(try await highestOnly.query("low-only")?.cacheType == .memory)
        let lowestOnly = ImageCachesManager(caches: [low.cache, high.cache], queryPolicy: .lowestOnly)
        #expect(try await lowestOnly.query("k") == nil)
        let concurrent = ImageCachesManager(caches: [low.cache, high.cache], queryPolicy: .concurrent)
        #expect(try await concurrent.query("k") != nil)
        #expect(try await concurrent.query("nowhere") == nil)

        let everywhere = ImageCachesManager(caches: [low.cache, high.cache], storePolicy: .serial)
        try await everywhere.store(image, data: nil, forKey: "both")
        #expect(try await low.cache.contains("both") == .memory)
        #expect(try await high.cache.contains("both") == .memory)
        try await everywhere.remove("both")
        #expect(try await low.cache.contains("both") == .none)
        #expect(try await high.cache.contains("both") == .none)
        try await everywhere.clearDisk()
        #expect(try await high.cache.diskTotals().count == 0)
        #expect(try await low.cache.diskTotals().count == 0)
    }
}
