import Foundation
import MemoryCache
import Testing
import WebImageCore

/// The PSI reader and the monitor that trims the memory plugin under pressure.
@Suite struct MemoryPressureMonitorTests {
    let folder = NSTemporaryDirectory() + "webimage-psi-" + UUID().uuidString

    func psiFile(some: String, full: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/memory.pressure"
        try "some avg10=\(some) avg60=0.00 avg300=0.00 total=12\nfull avg10=\(full) avg60=0.00 avg300=0.00 total=3\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func filledCache() throws -> PluginMemoryCache {
        let cache = try MemoryCachePlugin.backend().make(["max-cost": "0"])
        for index in 0..<10 { try cache.setValue(index, forKey: "k\(index)", cost: 100) }
        return cache
    }

    @Test func psiTextParses() {
        #expect(
            MemoryPressure(
                psi: "some avg10=12.50 avg60=1.00 avg300=0.10 total=99\nfull avg10=3.25 avg60=0 avg300=0 total=1\n")
                == MemoryPressure(someAverage10: 12.5, fullAverage10: 3.25))
        #expect(MemoryPressure(psi: "garbage") == nil)
    }

    @Test func thisMachinesPressureIsReadable() throws {
        let path = try #require(MemoryPressure.sourcePath())
        #expect(MemoryPressure(psi: try String(contentsOfFile: path, encoding: .utf8)) != nil)
    }

    @Test func somePressureTrimsToTheRatioAndFullPressureEmpties() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = try filledCache()
        let calm = try MemoryPressureMonitor(cache: cache, path: try psiFile(some: "2.00", full: "0.00"))
        #expect(calm.check() == MemoryPressure(someAverage10: 2, fullAverage10: 0))
        #expect(cache.totals.bytes == 1000)
        let some = try MemoryPressureMonitor(cache: cache, path: try psiFile(some: "15.00", full: "0.00"))
        some.check()
        #expect(cache.totals.bytes == 500)
        let full = try MemoryPressureMonitor(cache: cache, path: try psiFile(some: "60.00", full: "20.00"))
        full.check()
        #expect(cache.totals.count == 0)
        #expect(full.trimCount == 1)
    }

    @Test func theRunningMonitorTrimsWithinAFewIntervals() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = try filledCache()
        let monitor = try MemoryPressureMonitor(
            cache: cache, path: try psiFile(some: "50.00", full: "0.00"), interval: .milliseconds(10))
        monitor.start()
        defer { monitor.stop() }
        for _ in 0..<200 where monitor.trimCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(monitor.trimCount >= 1)
        #expect(cache.totals.bytes <= 500)
    }
}
