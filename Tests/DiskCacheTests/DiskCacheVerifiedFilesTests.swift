import CDiskShim
import DiskCache
import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// A read hashes an entry's bytes once per file version and process: files this process wrote or
/// verified are trusted while their identity holds and no inotify event named them since.
@Suite struct DiskCacheVerifiedFilesTests {
    /// The bytes of `key` read through `cache`, and how many reads hashed them (0 or 1).
    func read(_ key: String, _ cache: PluginDiskCache) throws -> (Data?, UInt64) {
        let before = disk_cache_checksums_on_this_thread()
        let data = try cache.entry(forKey: key)?.data
        return (data, disk_cache_checksums_on_this_thread() - before)
    }

    @Test func anEntryThisProcessWroteIsNotHashedAgain() throws {
        let fixture = try DiskCacheFixture()
        try fixture.cache.store(testBytes(300_000), extendedData: nil, forKey: "k")
        let (data, hashed) = try read("k", fixture.cache)
        #expect(data == testBytes(300_000))
        #expect(hashed == 0)
    }

    /// A thousand entries are all remembered: names that share a set keep their own records, and
    /// the events on the temporary files of later writes do not forget earlier entries.
    @Test func aThousandEntriesThisProcessWroteAreAllTrusted() throws {
        let fixture = try DiskCacheFixture()
        let keys = (0..<1000).map { "https://example.com/images/\($0).jpg" }
        for (index, key) in keys.enumerated() {
            try fixture.cache.store(
                testBytes(512, seed: UInt8(truncatingIfNeeded: index)), extendedData: nil, forKey: key)
        }
        var hashed: [String] = []
        for (index, key) in keys.enumerated() {
            let (data, count) = try read(key, fixture.cache)
            #expect(data == testBytes(512, seed: UInt8(truncatingIfNeeded: index)))
            if count > 0 { hashed.append(key) }
        }
        #expect(hashed == [])
    }

    /// Extended data kept in the file is covered by the same trust.
    @Test func anotherInstancesEntryIsHashedOnceThenTrusted() throws {
        let fixture = try DiskCacheFixture(["xattr": "off"])
        try fixture.cache.store(testBytes(1000), extendedData: Data("etag".utf8), forKey: "k")
        let other = try DiskCacheFixture.open(fixture.directory.path, ["xattr": "off"])
        #expect(try read("k", other) == (testBytes(1000), 1))
        #expect(try read("k", other) == (testBytes(1000), 0))
    }

    @Test func aReplacementWrittenByAnotherInstanceIsHashed() throws {
        let fixture = try DiskCacheFixture()
        let other = try DiskCacheFixture.open(fixture.directory.path)
        try fixture.cache.store(testBytes(1000, seed: 1), extendedData: nil, forKey: "k")
        #expect(try read("k", other) == (testBytes(1000, seed: 1), 1))
        try fixture.cache.store(testBytes(1000, seed: 2), extendedData: nil, forKey: "k")
        #expect(try read("k", other) == (testBytes(1000, seed: 2), 1))
        #expect(try read("k", fixture.cache) == (testBytes(1000, seed: 2), 0))
    }

    /// Setting a time sets the change time; the cache records the identity after its own access-time write.
    @Test func anEntryStaysTrustedAfterTheCacheWritesItsAccessTime() throws {
        let fixture = try DiskCacheFixture()
        try fixture.cache.store(testBytes(1000), extendedData: nil, forKey: "k")
        setFileTimes(fixture.file("k"), access: now() - 100, modification: now())
        #expect(try read("k", fixture.cache) == (testBytes(1000), 1))
        #expect(try read("k", fixture.cache) == (testBytes(1000), 0))
    }

    @Test func extendedDataInAnXattrIsAlwaysHashed() throws {
        let fixture = try DiskCacheFixture(["xattr": "on"])
        try fixture.cache.store(testBytes(1000), extendedData: Data("etag".utf8), forKey: "k")
        guard extendedAttributeSize(fixture.file("k"), "user.webimage.extended") == 4 else {
            // The file system refused the xattr, so the extended data sits in the file: trusted.
            #expect(try read("k", fixture.cache) == (testBytes(1000), 0))
            return
        }
        #expect(try read("k", fixture.cache) == (testBytes(1000), 1))
        #expect(try read("k", fixture.cache) == (testBytes(1000), 1))
    }

    @Test func anEntryChangedInPlaceAfterItWasTrustedIsAMiss() throws {
        let fixture = try DiskCacheFixture()
        try fixture.cache.store(testBytes(1000), extendedData: nil, forKey: "k")
        #expect(try read("k", fixture.cache) == (testBytes(1000), 0))
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: fixture.file("k")))
        try handle.seek(toOffset: 10)
        try handle.write(contentsOf: Data([0xEE]))
        try handle.close()
        #expect(try read("k", fixture.cache) == (nil, 1))
        #expect(!FileManager.default.fileExists(atPath: fixture.file("k")))
    }
}

/// The verified-files record driven directly, with one file identity kept fixed, as on a kernel
/// whose coarse clock gives a change made within the same tick the same time stamps: only the
/// inotify events tell the change apart.
@Suite struct DiskCacheVerifiedRecordTests {
    let directory: TemporaryDirectory
    let record: OpaquePointer
    /// An entry file's name (only events on entry names count).
    let name = DiskCachePlugin.fileName(forKey: "https://example.com/entry.jpg")
    var path: String { directory.path + "/" + name }

    init() throws {
        directory = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: directory.path + "/" + name, contents: Data("abc".utf8)))
        record = try #require(disk_cache_verified_open(directory.path))
    }

    func identity() -> stat {
        var status = stat()
        stat(path, &status)
        return status
    }

    func lookup(_ status: stat, _ ticket: inout disk_cache_verified_ticket) -> Bool {
        var status = status
        return disk_cache_verified_lookup(record, name, &status, &ticket)
    }

    func insert(_ status: stat, _ ticket: disk_cache_verified_ticket, ownRenames: UInt32 = 0) {
        var status = status
        disk_cache_verified_insert(record, name, &status, ticket, ownRenames)
    }

    func appendByte() throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1]))
        try handle.close()
    }

    @Test func aWriteToTheFileForgetsItEvenWithTheSameIdentity() throws {
        defer { disk_cache_verified_close(record) }
        let status = identity()
        var ticket = disk_cache_verified_ticket()
        #expect(!lookup(status, &ticket))
        insert(status, ticket)
        #expect(lookup(status, &ticket))
        try appendByte()
        #expect(!lookup(status, &ticket))
    }

    @Test func aChangeWhileHashingIsNotRecorded() throws {
        defer { disk_cache_verified_close(record) }
        let status = identity()
        var ticket = disk_cache_verified_ticket()
        #expect(!lookup(status, &ticket))
        try appendByte()
        insert(status, ticket)
        #expect(!lookup(status, &ticket))
    }

    @Test func onlyTheWritersOwnRenameIsAllowed() throws {
        defer { disk_cache_verified_close(record) }
        var ticket = disk_cache_verified_ticket()
        _ = lookup(identity(), &ticket)
        #expect(FileManager.default.createFile(atPath: directory.path + "/.tmp", contents: Data("new".utf8)))
        #expect(rename(directory.path + "/.tmp", path) == 0)
        insert(identity(), ticket, ownRenames: 1)
        #expect(lookup(identity(), &ticket))

        #expect(FileManager.default.createFile(atPath: directory.path + "/.tmp", contents: Data("newer".utf8)))
        #expect(rename(directory.path + "/.tmp", path) == 0)
        try appendByte()
        insert(identity(), ticket, ownRenames: 1)
        #expect(!lookup(identity(), &ticket))
    }

    /// Temporary files, the index and the lock are not entries: writing them neither forgets a
    /// file nor stops an insert.
    @Test func eventsOnNamesThatAreNotEntriesAreNotCounted() throws {
        defer { disk_cache_verified_close(record) }
        let status = identity()
        var ticket = disk_cache_verified_ticket()
        #expect(!lookup(status, &ticket))
        for other in [".tmp-1-1", ".index", ".lock", "notes.txt"] {
            #expect(FileManager.default.createFile(atPath: directory.path + "/" + other, contents: Data("x".utf8)))
        }
        insert(status, ticket)
        #expect(lookup(status, &ticket))
        #expect(rename(directory.path + "/.tmp-1-1", directory.path + "/.tmp-1-2") == 0)
        #expect(lookup(status, &ticket))
    }

    @Test func aRemovedFolderForgetsItsFiles() throws {
        defer { disk_cache_verified_close(record) }
        let status = identity()
        var ticket = disk_cache_verified_ticket()
        _ = lookup(status, &ticket)
        insert(status, ticket)
        try FileManager.default.removeItem(atPath: directory.path)
        #expect(!lookup(status, &ticket))
    }

    /// The kernel reports a move of the folder itself as it happens (its removal may be reported late).
    @Test func nothingIsRecordedOnceTheFolderIsMoved() throws {
        defer { disk_cache_verified_close(record) }
        let status = identity()
        var ticket = disk_cache_verified_ticket()
        _ = lookup(status, &ticket)
        insert(status, ticket)
        let moved = directory.path + "-moved"
        #expect(rename(directory.path, moved) == 0)
        defer {
            _ = rename(moved, directory.path)
        }
        #expect(!lookup(status, &ticket))
        insert(status, ticket)
        #expect(!lookup(status, &ticket))
    }
}
