import Foundation
import Testing
import WebImageTestSupport

/// ``MeasuredProcess`` from the test support: a child's own peak memory is its own.
@Suite("MeasuredProcess")
struct MeasuredProcessTests {
    /// In a process of its own: the 256 MB would raise this test process's high-water mark,
    /// which wait4's figure of every later child counts.
    @Test("a small child's own peak is its own, not the 256 MB the process that starts it holds")
    func peakIsTheChilds() async {
        await #expect(processExitsWith: .success) {
            let held = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 20, alignment: 4096)
            defer { held.deallocate() }
            // Touch every page so it is resident.
            for offset in stride(from: 0, to: held.count, by: 4096) { held[offset] = 1 }
            let run = try MeasuredProcess.run("/bin/sleep", ["0.2"])
            try #require(run.exitStatus == 0)
            try #require(run.ownPeakResidentBytes > 0 && run.ownPeakResidentBytes < 32 << 20)
            // wait4's figure, the upper bound for limits, counts the starting process's memory.
            try #require(run.peakResidentBytes >= 256 << 20)
            withExtendedLifetime(held) {}
        }
    }
}
