import Dispatch
import Testing
import WebImageCore
import WebImageTestSupport

/// A plugin without `WEBIMAGE_CODER_THREAD_SAFE` is never entered by two threads at once.
@Suite(.ownThread) struct ThreadSafetyTests {
    @Test func callsIntoASerialPluginDoNotOverlap() throws {
        let folder = try PluginsFolder()
        try folder.compileFixture("serial_only")
        try folder.writeFixtureManifest(name: "serial_only", library: "libserial_only.so")
        let host = PluginHost(searchPath: PluginSearchPath(directories: [folder.path]))
        let coder = try #require(try host.open("serial_only").coder)
        #expect(!coder.isThreadSafe)
        let failures = TrackedMutex<[String]>([])
        let bytes = Array("FIXT".utf8)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do {
                _ = try bytes.withUnsafeBytes { try coder.decode($0, request: DecodeRequest()) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
    }
}
