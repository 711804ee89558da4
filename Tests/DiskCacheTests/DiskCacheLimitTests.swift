import DiskCache
import Foundation
import Testing
import WebImageCore

/// Hard size and count limits kept by every write, trimming least recently accessed entries to the
/// trim ratio; age limits by access, modification or creation; the index rebuilt when it is stale.
@Suite struct DiskCacheLimitTests {
    let entryBytes: UInt64 = 1000 + DiskCacheFixture.footer

    @Test func theSizeLimitHoldsAfterEveryWriteAndTrimsToTheRatio() throws {
        let fixture = try DiskCacheFixture(["max-size": "10320"])
        var sizes: [UInt64] = []
        for index in 0..<25 {
            try fixture.cache.store(testBytes(1000, seed: UInt8(index)), extendedData: nil, forKey: "k\(index)")
            let totals = try fixture.cache.totals()
            #expect(totals.bytes <= 10320)
            #expect(totals.bytes == UInt64(try fixture.entryFiles().count) * entryBytes)
            sizes.append(totals.count)
        }
        // 10 entries fit; the 11th write trims to 5160 bytes (5 entries) and adds itself.
        #expect(sizes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 6, 7, 8, 9, 10, 6, 7, 8, 9, 10, 6, 7, 8, 9, 10])
        #expect(try fixture.cache.entry(forKey: "k24")?.data == testBytes(1000, seed: 24))
        #expect(try (13..<17).map { try fixture.cache.contains("k\($0)") } == [false, false, true, true])
    }

    @Test func theLimitHoldsUnderConcurrentWritersInOneProcess() async throws {
        let fixture = try DiskCacheFixture(["max-size": "20640", "max-count": "15"])
        let cache = fixture.cache
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for step in 0..<60 {
                        try cache.store(
                            testBytes(1000, seed: UInt8(worker)), extendedData: nil, forKey: "w\(worker)-\(step % 25)")
                        let totals = try cache.totals()
                        #expect(totals.bytes <= 20640 && totals.count <= 15)
                    }
                }
            }
            try await group.waitForAll()
        }
        let totals = try cache.totals()
        #expect(totals.bytes == UInt64(try fixture.entryFiles().count) * entryBytes)
        #expect(totals.count == UInt64(try fixture.entryFiles().count))
    }

    @Test func theLeastRecentlyAccessedEntriesGoFirst() throws {
        let fixture = try DiskCacheFixture(["max-count": "4", "trim-ratio": "0.5"])
        for index in 0..<4 {
            try fixture.cache.store(testBytes(1000), extendedData: nil, forKey: "k\(index)")
            setFileTimes(fixture.file("k\(index)"), access: now() - 1000 + index, modification: now() - 1000)
        }
        _ = try fixture.cache.entry(forKey: "k0")
        try fixture.cache.store(testBytes(1000), extendedData: nil, forKey: "k4")
        #expect(try fixture.cache.totals().count == 3)
        #expect(try (0..<5).map { try fixture.cache.contains("k\($0)") } == [true, false, false, true, true])
    }

    @Test func aTrimRatioOfZeroEmptiesTheCacheBeforeTheWrite() throws {
        let fixture = try DiskCacheFixture(["max-count": "3", "trim-ratio": "0"])
        for index in 0..<4 { try fixture.cache.store(testBytes(10), extendedData: nil, forKey: "k\(index)") }
        #expect(try fixture.cache.totals().count == 1)
        #expect(try fixture.cache.contains("k3"))
    }

    @Test func anEntryLargerThanTheLimitIsTheOnlyOneKept() throws {
        let fixture = try DiskCacheFixture(["max-size": "2000"])
        try fixture.cache.store(testBytes(1000), extendedData: nil, forKey: "small")
        try fixture.cache.store(testBytes(5000), extendedData: nil, forKey: "big")
        #expect(
            try fixture.cache.totals() == CacheTotals(count: 1, bytes: 5032, byteLimit: 2000, ageLimitSeconds: 604_800))
    }

    @Test func expiredEntriesAreMissesAndRemoveExpiredDeletesThem() throws {
        for (type, access, modification, expired) in [
            ("modification", now(), now() - 7200, true), ("modification", now() - 7200, now(), false),
            ("access", now() - 7200, now(), true), ("access", now(), now() - 7200, false),
        ] {
            let fixture = try DiskCacheFixture(["max-age": "3600", "expire-type": type])
            try fixture.cache.store(testBytes(10), extendedData: nil, forKey: "old")
            try fixture.cache.store(testBytes(10), extendedData: nil, forKey: "new")
            setFileTimes(fixture.file("old"), access: access, modification: modification)
            try fixture.cache.removeExpired()
            #expect(try fixture.cache.contains("old") == !expired)
            #expect(try fixture.cache.totals().count == (expired ? 1 : 2))
            #expect(try fixture.cache.contains("new"))
        }
        let fixture = try DiskCacheFixture(["max-age": "3600"])
        try fixture.cache.store(testBytes(10), extendedData: nil, forKey: "old")
        setFileTimes(fixture.file("old"), access: now(), modification: now() - 7200)
        #expect(try fixture.cache.entry(forKey: "old") == nil)
        #expect(try fixture.cache.totals().count == 0)
    }

    @Test func creationTimeIsTheFilesBirthTime() throws {
        let fixture = try DiskCacheFixture(["max-age": "3600", "expire-type": "creation"])
        try fixture.cache.store(testBytes(10), extendedData: nil, forKey: "k")
        setFileTimes(fixture.file("k"), access: now() - 7200, modification: now() - 7200)
        try fixture.cache.removeExpired()
        #expect(try fixture.cache.contains("k"))
    }

    @Test func readsRecordTheAccessTimeThemselves() throws {
        let fixture = try DiskCacheFixture()
        try fixture.cache.store(testBytes(10), extendedData: nil, forKey: "k")
        setFileTimes(fixture.file("k"), access: now() - 86400, modification: now() - 86400)
        _ = try fixture.cache.entry(forKey: "k")
        let item = try #require(try fixture.cache.items().first)
        #expect(abs(Int(item.accessTime) - now()) < 60)
        #expect(Int(item.modificationTime) == now() - 86400 || Int(item.modificationTime) == now() - 86401)
    }

    @Test func removeExpiredTrimsWhenOverTheLimits() throws {
        let fixture = try DiskCacheFixture()
        for index in 0..<10 { try fixture.cache.store(testBytes(100), extendedData: nil, forKey: "k\(index)") }
        let limited = try DiskCacheFixture.open(fixture.directory.path, ["max-count": "4"])
        try limited.removeExpired()
        #expect(try limited.totals().count == 2)
    }

    @Test func aMissingOrDirtyIndexIsRebuiltByAScan() throws {
        let fixture = try DiskCacheFixture()
        for index in 0..<3 { try fixture.cache.store(testBytes(100), extendedData: nil, forKey: "k\(index)") }
        try FileManager.default.removeItem(atPath: fixture.folder + "/.index")
        let reopened = try DiskCacheFixture.open(fixture.directory.path)
        #expect(try reopened.totals() == CacheTotals(count: 3, bytes: 3 * 132, ageLimitSeconds: 604_800))
        // A dirty flag (a writer killed in its locked section) forces a scan even with wrong totals.
        let index = try FileHandle(forUpdating: URL(fileURLWithPath: fixture.folder + "/.index"))
        try index.seek(toOffset: 12)
        try index.write(contentsOf: Data([1, 0, 0, 0, 99, 0, 0, 0, 0, 0, 0, 0]))
        try index.close()
        #expect(try reopened.totals() == CacheTotals(count: 3, bytes: 3 * 132, ageLimitSeconds: 604_800))
        // A file removed behind the cache's back is noticed by the next open.
        try FileManager.default.removeItem(atPath: fixture.file("k0"))
        #expect(try DiskCacheFixture.open(fixture.directory.path).totals().count == 2)
    }

    @Test func orphanedTemporaryFilesOfDeadWritersAreRemovedOnOpen() throws {
        let fixture = try DiskCacheFixture()
        let orphan = fixture.folder + "/.tmp-999999999-1"
        #expect(FileManager.default.createFile(atPath: orphan, contents: testBytes(10)))
        _ = try DiskCacheFixture.open(fixture.directory.path)
        #expect(!FileManager.default.fileExists(atPath: orphan))
    }
}
