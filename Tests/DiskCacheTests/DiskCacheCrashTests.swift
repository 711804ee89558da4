import DiskCache
import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// Writers killed with SIGKILL at random moments, and two processes on one folder: no entry
/// ever reads back wrong, the size limit holds, and the index converges to what is on disk.
@Suite(.serialized, .ownThread) struct DiskCacheCrashTests {
    /// The writer's largest entry file: 8 + 19,999 bytes of value plus the footer (extended data is an xattr).
    let largestEntry: UInt64 = 8 + 19_999 + 32
    let maxSize = 150_000

    /// The bytes of every entry file in the namespace `shared`, summed, and their count (files
    /// removed while the folder is read are not counted).
    func onDisk(_ directory: TemporaryDirectory) throws -> (bytes: UInt64, count: UInt64, temporary: Int) {
        var bytes: UInt64 = 0
        var count: UInt64 = 0
        var temporary = 0
        // A writer killed before it opened the cache leaves no folder.
        guard FileManager.default.fileExists(atPath: directory.path + "/shared") else { return (0, 0, 0) }
        for name in try directory.names(in: "shared") {
            if name.hasPrefix(".tmp-") { temporary += 1 }
            if name.hasPrefix(".") { continue }
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: directory.path + "/shared/" + name)
            else { continue }
            bytes += (attributes[.size] as! NSNumber).uint64Value
            count += 1
        }
        return (bytes, count, temporary)
    }

    @Test func writersKilledAtRandomMomentsLeaveNoBadEntry() throws {
        let directory = try TemporaryDirectory()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<40 {
            let writer = try WriterProcess(["write", directory.path, String(maxSize), String(round + 1), "0"])
            // The random moment is counted from the first stored entry, so that a slow start
            // (a TSan build) still has the writer killed in the middle of its writes.
            try writer.waitForFirstEntry()
            usleep(UInt32.random(in: 2_000...80_000, using: &generator))
            writer.kill()
            #expect(writer.process.terminationReason == .uncaughtSignal)
            let disk = try onDisk(directory)
            #expect(disk.bytes <= UInt64(maxSize) + largestEntry)
        }
        let counts = try WriterProcess.verify(directory.path, maxSize: maxSize)
        #expect(counts["status"] == 0)
        #expect(counts["bad"] == 0)
        #expect(counts["present", default: 0] > 0)
        let disk = try onDisk(directory)
        #expect(disk.temporary == 0)
        #expect(counts["bytes"] == disk.bytes)
        #expect(counts["count"] == disk.count)
        #expect(disk.bytes <= UInt64(maxSize) + largestEntry)
    }

    @Test func twoProcessesOnOneFolderStayCorrect() throws {
        let directory = try TemporaryDirectory()
        let first = try WriterProcess(["write", directory.path, String(maxSize), "101", "400"])
        let second = try WriterProcess(["write", directory.path, String(maxSize), "202", "400"])
        defer {
            first.kill()
            second.kill()
        }
        let reader = try DiskCacheFixture.open(directory.path, namespace: "shared", ["max-size": String(maxSize)])
        var reads = 0
        while first.process.isRunning || second.process.isRunning {
            for key in 0..<200 where try reader.entry(forKey: "k\(key)") != nil { reads += 1 }
            #expect(try onDisk(directory).bytes <= UInt64(maxSize) + 2 * largestEntry)
        }
        #expect(first.finish().status == 0)
        #expect(second.finish().status == 0)
        let counts = try WriterProcess.verify(directory.path, maxSize: maxSize)
        #expect(counts["bad"] == 0)
        let disk = try onDisk(directory)
        #expect(counts["bytes"] == disk.bytes)
        #expect(counts["count"] == disk.count)
        #expect(try reader.totals().bytes == disk.bytes)
        #expect(disk.bytes <= UInt64(maxSize) + largestEntry)
        #expect(disk.temporary == 0)
    }
}
