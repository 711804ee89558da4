import Foundation
import Testing
import WebImageTestSupport

/// ``MeasuredProcess`` from the test support: a child's peak memory is its own.
@Suite("MeasuredProcess")
struct MeasuredProcessTests {
    @Test("a small child's own peak is its own, not the 256 MB the test process holds")
    func peakIsTheChilds() async throws {
        let held = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 20, alignment: 4096)
        defer { held.deallocate() }
        // Touch every page so it is resident.
        for offset in stride(from: 0, to: held.count, by: 4096) { held[offset] = 1 }
        let run = try await MeasuredProcess.run("/bin/sleep", ["0.2"])
        #expect(run.exitStatus == 0)
        #expect(run.ownPeakResidentBytes > 0)
        #expect(run.ownPeakResidentBytes < 32 << 20, "peak \(run.ownPeakResidentBytes) bytes")
        // wait4's figure, the upper bound for limits, counts the test process's memory.
        #expect(run.peakResidentBytes >= 256 << 20)
        withExtendedLifetime(held) {}
    }
}
