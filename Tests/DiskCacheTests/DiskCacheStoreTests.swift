import DiskCache
import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// Storing, reading, removing and counting entries; options; extended data; extra paths; migration.
@Suite struct DiskCacheStoreTests {
    @Test func anEntryReadsBackWithItsExtendedData() throws {
        let fixture = try DiskCacheFixture()
        let data = testBytes(300_000)
        try fixture.cache.store(data, extendedData: Data("etag: \"abc\"".utf8), forKey: "http://x/a.png")
        let entry = try #require(try fixture.cache.entry(forKey: "http://x/a.png"))
        #expect(entry.data == data)
        #expect(entry.extendedData == Data("etag: \"abc\"".utf8))
        #expect(try fixture.cache.contains("http://x/a.png"))
        #expect(try fixture.cache.entry(forKey: "http://x/b.png") == nil)
        #expect(try !fixture.cache.contains("http://x/b.png"))
        #expect(
            try fixture.cache.totals()
                == CacheTotals(count: 1, bytes: 300_000 + DiskCacheFixture.footer, ageLimitSeconds: 604_800))
        #expect(try fixture.entryFiles() == [DiskCachePlugin.fileName(forKey: "http://x/a.png")])
        #expect(fixture.cache.path(forKey: "http://x/a.png") == fixture.file("http://x/a.png"))
    }

    /// The kernel copies a read out of page-aligned page-cache pages; a destination a few bytes
    /// past a page boundary (where a fresh heap block starts) made that copy 3-4x slower.
    @Test func anEntryOfAPageOrMoreIsReadIntoPageAlignedMemory() throws {
        let fixture = try DiskCacheFixture()
        for size in [4096, 262_144, 300_001] {
            try fixture.cache.store(testBytes(size), extendedData: nil, forKey: "k\(size)")
            let entry = try #require(try fixture.cache.entry(forKey: "k\(size)"))
            #expect(entry.data == testBytes(size))
            let address = entry.data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
            #expect(address % 4096 == 0, "entry of \(size) bytes at \(address)")
        }
    }

    @Test func bytesOfAnArrayAreStoredAsTheyAre() throws {
        let fixture = try DiskCacheFixture()
        let bytes = [UInt8](testBytes(70_000))
        try fixture.cache.store(bytes: bytes, extendedData: Data("etag: \"b\"".utf8), forKey: "http://x/b.jpg")
        try fixture.cache.store(bytes: [], extendedData: nil, forKey: "http://x/empty.jpg")
        let entry = try #require(try fixture.cache.entry(forKey: "http://x/b.jpg"))
        #expect([UInt8](entry.data) == bytes)
        #expect(entry.extendedData == Data("etag: \"b\"".utf8))
        let empty = try #require(try fixture.cache.entry(forKey: "http://x/empty.jpg"))
        #expect(empty.data.isEmpty && empty.extendedData == nil)
        #expect(try fixture.cache.totals().count == 2)
    }

    @Test func anEntryWithoutExtendedDataHasNone() throws {
        let fixture = try DiskCacheFixture()
        try fixture.cache.store(Data([1, 2, 3]), extendedData: nil, forKey: "k")
        #expect(try fixture.cache.entry(forKey: "k") == DiskCacheEntry(data: Data([1, 2, 3]), extendedData: nil))
        try fixture.cache.store(Data(), extendedData: nil, forKey: "empty")
        #expect(try fixture.cache.entry(forKey: "empty") == DiskCacheEntry(data: Data(), extendedData: nil))
    }

    @Test func extendedDataGoesIntoTheFileWhenXattrsAreOff() throws {
        let fixture = try DiskCacheFixture(["xattr": "off"])
        try fixture.cache.store(testBytes(1000), extendedData: Data("validators".utf8), forKey: "k")
        #expect(
            try fixture.cache.entry(forKey: "k")
                == DiskCacheEntry(data: testBytes(1000), extendedData: Data("validators".utf8)))
        #expect(try fixture.cache.totals().bytes == 1000 + 10 + DiskCacheFixture.footer)
        #expect(extendedAttributeSize(fixture.file("k"), "user.webimage.extended") == -1)
    }

    @Test func extendedDataIsAnXattrWhenTheFileSystemTakesIt() throws {
        let fixture = try DiskCacheFixture()
        try fixture.cache.store(testBytes(1000), extendedData: Data("validators".utf8), forKey: "k")
        let size = extendedAttributeSize(fixture.file("k"), "user.webimage.extended")
        #expect(size == 10)
        #expect(try fixture.cache.totals().bytes == 1000 + DiskCacheFixture.footer)
    }

    @Test func overwritingReplacesTheEntryAndItsSize() throws {
        let fixture = try DiskCacheFixture()
        try fixture.cache.store(testBytes(5000), extendedData: nil, forKey: "k")
        try fixture.cache.store(testBytes(2000, seed: 9), extendedData: nil, forKey: "k")
        #expect(try fixture.cache.entry(forKey: "k")?.data == testBytes(2000, seed: 9))
        #expect(try fixture.cache.totals().count == 1)
        #expect(try fixture.cache.totals().bytes == 2000 + DiskCacheFixture.footer)
    }

    @Test func removeAndRemoveAll() throws {
        let fixture = try DiskCacheFixture()
        for index in 0..<5 { try fixture.cache.store(testBytes(100), extendedData: nil, forKey: "k\(index)") }
        try fixture.cache.remove("k1")
        try fixture.cache.remove("missing")
        #expect(try fixture.cache.entry(forKey: "k1") == nil)
        #expect(try fixture.cache.totals().count == 4)
        #expect(try fixture.cache.totals().bytes == 4 * (100 + DiskCacheFixture.footer))
        try fixture.cache.removeAll()
        #expect(try fixture.cache.totals().count == 0)
        #expect(try fixture.cache.totals().bytes == 0)
        #expect(try fixture.entryFiles() == [])
    }

    @Test func namespacesAreSeparateFolders() throws {
        let directory = try TemporaryDirectory()
        let first = try DiskCacheFixture.open(directory.path, namespace: "one")
        let second = try DiskCacheFixture.open(directory.path, namespace: "two")
        try first.store(Data([1]), extendedData: nil, forKey: "k")
        #expect(try second.entry(forKey: "k") == nil)
        try second.removeAll()
        #expect(try first.entry(forKey: "k")?.data == Data([1]))
        #expect(try directory.names(in: "").filter { !$0.hasPrefix(".") } == ["one", "two"])
    }

    @Test func listReportsEveryEntryWithItsSize() throws {
        let fixture = try DiskCacheFixture()
        try fixture.cache.store(testBytes(10), extendedData: nil, forKey: "a.png")
        try fixture.cache.store(testBytes(20), extendedData: nil, forKey: "b")
        let items = try fixture.cache.items().sorted { $0.size < $1.size }
        #expect(
            items.map(\.name) == [DiskCachePlugin.fileName(forKey: "a.png"), DiskCachePlugin.fileName(forKey: "b")])
        #expect(items.map(\.size) == [42, 52])
        #expect(items.allSatisfy { abs(Int($0.modificationTime) - now()) < 60 && abs(Int($0.accessTime) - now()) < 60 })
    }

    @Test func unknownOptionsAndBadValuesAreClearErrors() throws {
        let directory = try TemporaryDirectory()
        let cases: [(String, String, String)] = [
            ("colour", "red", "unknown option 'colour'"),
            ("max-size", "12MB", "max-size: '12MB' is not a whole number (0 means no limit)"),
            ("max-count", "-1", "max-count: '-1' is not a whole number (0 means no limit)"),
            ("expire-type", "never", "expire-type: 'never' is not access, modification or creation"),
            ("trim-ratio", "1.5", "trim-ratio: '1.5' is not a number from 0 to 1"),
            ("namespace", "../up", "namespace: '../up' is not a folder name (no '/', not empty, '.' or '..')"),
        ]
        for (key, value, message) in cases {
            let error = try #require(throws: CacheError.self) {
                try DiskCacheFixture.open(directory.path, [key: value])
            }
            #expect(error.kind == .invalidArgument)
            #expect(error.message.hasPrefix(message))
        }
    }

    @Test func readOnlyPathsAreSearchedAfterTheMainFolder() throws {
        let old = try DiskCacheFixture()
        try old.cache.store(Data([7, 7]), extendedData: Data([1]), forKey: "shared.png")
        let fixture = try DiskCacheFixture(["read-only-paths": "/nonexistent:" + old.folder])
        #expect(
            try fixture.cache.entry(forKey: "shared.png")
                == DiskCacheEntry(data: Data([7, 7]), extendedData: Data([1])))
        #expect(try fixture.cache.contains("shared.png"))
        #expect(try fixture.cache.totals().count == 0)
        try fixture.cache.store(Data([9]), extendedData: nil, forKey: "shared.png")
        #expect(try fixture.cache.entry(forKey: "shared.png")?.data == Data([9]))
        #expect(try old.cache.entry(forKey: "shared.png")?.data == Data([7, 7]))
    }

    @Test func anOlderCacheFolderIsMovedIntoPlace() throws {
        let old = try DiskCacheFixture()
        try old.cache.store(Data([5]), extendedData: nil, forKey: "k")
        let directory = try TemporaryDirectory()
        let cache = try DiskCacheFixture.open(directory.path, ["migrate-from": old.folder])
        #expect(try cache.entry(forKey: "k")?.data == Data([5]))
        #expect(try cache.totals().count == 1)
        #expect(!FileManager.default.fileExists(atPath: old.folder))
    }

    @Test func concurrentWritesOfOneKeyLeaveOneWholeValue() async throws {
        let fixture = try DiskCacheFixture()
        let cache = fixture.cache
        let values = (0..<16).map { testBytes(50_000 + $0 * 1000, seed: UInt8($0)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for value in values {
                group.addTask {
                    for _ in 0..<10 { try cache.store(value, extendedData: value.prefix(4), forKey: "same") }
                }
            }
            try await group.waitForAll()
        }
        let entry = try #require(try cache.entry(forKey: "same"))
        #expect(values.contains(entry.data))
        #expect(entry.extendedData == entry.data.prefix(4))
        #expect(
            try cache.totals()
                == CacheTotals(
                    count: 1, bytes: UInt64(entry.data.count) + DiskCacheFixture.footer, ageLimitSeconds: 604_800))
        #expect(
            try fixture.directory.names(in: "default") == [".index", ".lock", DiskCachePlugin.fileName(forKey: "same")])
    }
}

/// Keys the file system could trip on.
@Suite struct DiskCacheKeyTests {
    @Test func emptyLongAndBinaryKeysWork() throws {
        let fixture = try DiskCacheFixture()
        let keys = ["", String(repeating: "k", count: 100_000), "../../etc/passwd", "a\u{0}b", "ünï/cödé.png"]
        for (index, key) in keys.enumerated() {
            try fixture.cache.store(Data([UInt8(index)]), extendedData: nil, forKey: key)
        }
        for (index, key) in keys.enumerated() {
            #expect(try fixture.cache.entry(forKey: key)?.data == Data([UInt8(index)]))
        }
        #expect(try fixture.entryFiles().count == keys.count)
    }
}
