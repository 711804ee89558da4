import Dispatch
import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Each plugin is opened once, by its first user, and its entry function runs with no lock
/// of the host held.
@Suite(.ownThread) struct PluginOpeningTests {
    /// The counters and the release switch that `slow_entry.c` exports.
    struct SlowEntry {
        let calls: @convention(c) () -> Int32
        let returns: @convention(c) () -> Int32
        let release: @convention(c) () -> Void

        /// The functions of the copy of the library the host opened; nil until it is open.
        init?(path: String) {
            guard let handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD),
                let calls = dlsym(handle, "slow_entry_calls"), let returns = dlsym(handle, "slow_entry_returns"),
                let release = dlsym(handle, "slow_entry_release")
            else { return nil }
            self.calls = unsafeBitCast(calls, to: (@convention(c) () -> Int32).self)
            self.returns = unsafeBitCast(returns, to: (@convention(c) () -> Int32).self)
            self.release = unsafeBitCast(release, to: (@convention(c) () -> Void).self)
        }
    }

    @Test func concurrentFirstUsesOpenOnceAndOtherPluginsOpenMeanwhile() throws {
        let folder = try PluginsFolder()
        try folder.addPNGAndJPEG()
        try folder.compileFixture("slow_entry")
        try folder.writeFixtureManifest(name: "slow_entry", library: "libslow_entry.so")
        let host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
        let openers = 4
        let outcomes = TrackedMutex<[Result<UInt, PluginFault>]>([])
        let finished = DispatchGroup()
        for _ in 0..<openers {
            finished.enter()
            Thread.detachNewThread {
                let outcome = Result { () throws(PluginFault) in
                    UInt(bitPattern: try host.open("slow_entry").descriptor)
                }
                outcomes.withLock { $0.append(outcome) }
                finished.leave()
            }
        }
        let libraryPath = folder.path + "/libslow_entry.so"
        var slow = SlowEntry(path: libraryPath)
        for _ in 0..<5000 where slow.map({ $0.calls() }) != 1 {
            usleep(1000)
            slow = slow ?? SlowEntry(path: libraryPath)
        }
        let blocked = try #require(slow, "the host never opened the slow plugin")
        #expect(blocked.calls() == 1)

        // The slow entry function is still running: the host must serve everything else.
        let png = try host.open("png")
        #expect(png.coder?.formats.map(\.name) == ["png"])
        #expect(host.faults.isEmpty)
        #expect(host.plugins(of: .coder).map(\.name) == ["jpeg", "png", "slow_entry"])
        #expect(blocked.returns() == 0, "opening png waited for the slow plugin's entry function")

        blocked.release()
        #expect(finished.wait(timeout: .now() + 20) == .success)
        let results = outcomes.withLock { $0 }
        let descriptors = Set(results.compactMap { try? $0.get() })
        #expect(results.count == openers)
        #expect(descriptors.count == 1)
        #expect(blocked.calls() == 1)
        #expect(blocked.returns() == 1)
        let again = try host.open("slow_entry")
        #expect(descriptors == [UInt(bitPattern: again.descriptor)])
        #expect(blocked.calls() == 1)
    }
}
