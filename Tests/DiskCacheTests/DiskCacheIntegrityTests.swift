import DiskCache
import Foundation
import Testing
import WebImageCore

/// A read never returns a torn, truncated or altered entry: it is removed and reported as a miss.
@Suite struct DiskCacheIntegrityTests {
    /// Stores `k` (1000 bytes, 10 bytes of extended data in the file), damages its file with `damage`, reads it.
    func readAfter(_ damage: (FileHandle, String) throws -> Void) throws -> (DiskCacheEntry?, DiskCacheFixture) {
        let fixture = try DiskCacheFixture(["xattr": "off"])
        try fixture.cache.store(testBytes(1000), extendedData: Data("0123456789".utf8), forKey: "k")
        try fixture.cache.store(testBytes(10), extendedData: nil, forKey: "other")
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: fixture.file("k")))
        try damage(handle, fixture.file("k"))
        try handle.close()
        return (try fixture.cache.entry(forKey: "k"), fixture)
    }

    func expectRemoved(_ result: (DiskCacheEntry?, DiskCacheFixture)) throws {
        #expect(result.0 == nil)
        #expect(!FileManager.default.fileExists(atPath: result.1.file("k")))
        #expect(try result.1.cache.totals().count == 1)
        #expect(try result.1.cache.totals().bytes == 10 + DiskCacheFixture.footer)
        #expect(try result.1.cache.entry(forKey: "other")?.data == testBytes(10))
    }

    @Test func aTruncatedEntryIsAMissAndIsRemoved() throws {
        for length in [0, 5, 500, 1000, 1010, 1041] {
            try expectRemoved(try readAfter { handle, _ in try handle.truncate(atOffset: UInt64(length)) })
        }
    }

    /// Version 1 wrote transformed images under SDWebImage's keys, which a URL can spell.
    @Test func anEntryOfTheEarlierFormatIsAMissAndIsRemoved() throws {
        try expectRemoved(
            try readAfter { handle, _ in
                try handle.seek(toOffset: 1000 + 10 + 4)  // the footer's version byte
                try handle.write(contentsOf: Data([1]))
            })
    }

    @Test func aFlippedByteInTheDataIsAMiss() throws {
        try expectRemoved(
            try readAfter { handle, _ in
                try handle.seek(toOffset: 500)
                try handle.write(contentsOf: Data([0xFF ^ UInt8(truncatingIfNeeded: 500 * 7 + 1)]))
            })
    }

    @Test func aFlippedByteInTheExtendedDataIsAMiss() throws {
        try expectRemoved(
            try readAfter { handle, _ in
                try handle.seek(toOffset: 1003)
                try handle.write(contentsOf: Data("X".utf8))
            })
    }

    @Test func aLongerFileIsAMiss() throws {
        try expectRemoved(
            try readAfter { handle, _ in
                try handle.seekToEnd()
                try handle.write(contentsOf: Data([0]))
            })
    }

    @Test func aFileWithoutAFooterIsAMiss() throws {
        try expectRemoved(
            try readAfter { handle, _ in
                try handle.truncate(atOffset: 0)
                try handle.write(contentsOf: testBytes(4000))
            })
    }

    @Test func aMissingExtendedAttributeIsAMiss() throws {
        let fixture = try DiskCacheFixture()
        try fixture.cache.store(testBytes(100), extendedData: Data("etag".utf8), forKey: "k")
        typealias RemoveXattr = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32
        let removexattr = unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), "removexattr")!, to: RemoveXattr.self)
        #expect(removexattr(fixture.file("k"), "user.webimage.extended") == 0)
        #expect(try fixture.cache.entry(forKey: "k") == nil)
        #expect(try fixture.cache.totals().count == 0)
    }
}
