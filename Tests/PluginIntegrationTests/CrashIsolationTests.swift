import Foundation
import Logging
import Synchronization
import Testing
import WebImageCore
import WebImageTestSupport

/// Hostile coder plugins (built from `Tests/Fixtures/HostilePlugins/hostile.c`) running in the
/// real `webimage-plugin-worker`: each crash or hang is a typed error naming the plugin, the
/// call and the signal, the host survives and keeps decoding PNG through the bundled plugin,
/// the worker restarts, and a plugin that keeps failing is disabled.
///
/// Serialized: each test blocks its thread while a worker crashes, hangs or times out (for
/// seconds), and on Linux the threads tests run on are the few (one per core) that every
/// task of the process and `DispatchQueue.global()` share; two such tests at once stalled the
/// image manager's tests for a minute (``onOwnThread(_:)``).
@Suite(.serialized, .ownThread) struct CrashIsolationTests {
    /// The bytes the hostile coder decodes normally, and the ones that trigger its misbehaviour.
    static let valid = Array("HOST".utf8)
    static let trigger = Array("HOSTX".utf8)

    /// A folder with the PNG plugin and one hostile plugin `name`.
    func folder(_ name: String, _ behaviour: HostileBehaviour) throws -> PluginsFolder {
        let folder = try PluginsFolder()
        try folder.addBundled(manifest: "png.json", library: "libWebImagePNG.so")
        try folder.addHostile(name, behaviour)
        return folder
    }

    /// A host over `folder`, which lives as long as the host does.
    func host(
        _ folder: PluginsFolder, isolation: PluginIsolation = PluginIsolation(), logger: Logger = Logger(label: "test")
    ) -> PluginHost {
        let host = PluginHost(
            searchPath: PluginSearchPath(directories: [folder.path]), logger: logger, isolation: isolation)
        Self.keepAlive.withLock { $0.append(folder) }
        return host
    }

    /// The folders of the hosts made so far: a host reads its plugins' files when it opens them,
    /// long after the test's last use of the folder.
    static let keepAlive = TrackedMutex<[PluginsFolder]>([])

    /// The error `body` throws, which must be an ``ImageCodingError``.
    func codingError(_ body: () throws -> Void) throws -> ImageCodingError {
        do {
            try body()
        } catch let error as ImageCodingError {
            return error
        }
        throw HarnessError("no error was thrown")
    }

    /// The bundled PNG plugin still decodes.
    func expectPNGStillDecodes(_ manager: CodersManager) throws {
        #expect(try manager.decode(try Fixture.bytes("png/rgba8.png")).width == 13)
    }

    @Test(
        "a crash in decode is a typed error naming plugin, call and signal; the next call runs in a new worker",
        arguments: [
            (HostileBehaviour.segfault(in: .decode), "SIGSEGV"), (HostileBehaviour.abort(in: .decode), "SIGABRT"),
        ])
    func crashInDecode(behaviour: HostileBehaviour, signal: String) throws {
        let host = host(try folder("crash_decode", behaviour))
        #expect(host.isIsolated("crash_decode"))
        let manager = host.makeCodersManager()
        #expect(try manager.decode(Self.valid).pixels.channels(x: 0, y: 0) == [1, 0, 0, 255])
        #expect(try manager.decode(Self.valid).pixels.channels(x: 0, y: 0) == [2, 0, 0, 255])
        let error = try codingError { _ = try manager.decode(Self.trigger) }
        #expect(error.kind == .pluginCrashed)
        #expect(error.message == "plugin 'crash_decode' crashed in decode (\(signal))")
        try expectPNGStillDecodes(manager)
        // A new worker: its decode counter starts again at 1.
        #expect(try manager.decode(Self.valid).pixels.channels(x: 0, y: 0) == [1, 0, 0, 255])
    }

    @Test("a worker started from a thread that then ends keeps running: the next decode uses it, no crash")
    func workerOutlivesTheThreadThatStartedIt() throws {
        let folder = try PluginsFolder()
        try folder.addBundled(manifest: "png.json", library: "libWebImagePNG.so")
        let manager = host(folder).makeCodersManager()
        let png = try Fixture.bytes("png/rgba8.png")
        // The first decode starts the worker, on a thread that ends right after it.
        let first = TrackedMutex<Int?>(nil)
        let thread = Thread { first.withLock { $0 = try? manager.decode(png).width } }
        thread.start()
        while first.withLock({ $0 }) == nil { usleep(1_000) }
        while !thread.isFinished { usleep(1_000) }
        usleep(200_000)
        #expect(first.withLock { $0 } == 13)
        // A worker killed with its thread would make this a crash (SIGKILL) of the plugin.
        for _ in 0..<3 { #expect(try manager.decode(png).width == 13) }
    }

    @Test("a crash in a thumbnail decode names the thumbnail decode")
    func crashInThumbnailDecode() throws {
        let manager = host(try folder("crash_decode", .segfault(in: .decode))).makeCodersManager()
        let error = try codingError {
            _ = try manager.decode(Self.trigger, options: DecodeOptions(thumbnail: ThumbnailSize(width: 1, height: 1)))
        }
        #expect(error.message == "plugin 'crash_decode' crashed in thumbnail decode (SIGSEGV)")
    }

    @Test("a crash in probe is a typed error; decoding goes on")
    func crashInProbe() throws {
        let manager = host(try folder("crash_probe", .segfault(in: .probe))).makeCodersManager()
        let error = try codingError { _ = try manager.probe(Self.trigger) }
        #expect(error.kind == .pluginCrashed)
        #expect(error.message == "plugin 'crash_probe' crashed in probe (SIGSEGV)")
        #expect(try manager.probe(Self.valid).width == 2)
        try expectPNGStillDecodes(manager)
    }

    @Test("a crash in encode is a typed error; encoding goes on")
    func crashInEncode() throws {
        let manager = host(try folder("crash_encode", .abort(in: .encode))).makeCodersManager()
        let wide = try PixelBuffer(width: 3, height: 1, format: .rgba8)
        memset(wide.baseAddress, 7, 12)
        let error = try codingError { _ = try manager.encode(wide, options: EncodeOptions(format: "hostile")) }
        #expect(error.kind == .pluginCrashed)
        #expect(error.message == "plugin 'crash_encode' crashed in encode (SIGABRT)")
        let image = try PixelBuffer(width: 2, height: 1, format: .rgba8)
        memset(image.baseAddress, 9, 8)
        #expect(
            try manager.encode(image, options: EncodeOptions(format: "hostile")).bytes == Array("HOST".utf8) + [
                9, 9, 9, 9,
            ])
        try expectPNGStillDecodes(manager)
    }

    @Test("a decode that overruns its deadline is killed with a typed timeout; the next decode works")
    func hangInDecode() throws {
        let host = host(
            try folder("hang_decode", .hang(in: .decode)), isolation: PluginIsolation(callTimeout: .seconds(1)))
        let manager = host.makeCodersManager()
        let error = try codingError { _ = try manager.decode(Self.trigger) }
        #expect(error.kind == .timedOut)
        #expect(error.message == "plugin 'hang_decode' timed out in decode after 1 s; its worker was killed")
        try expectPNGStillDecodes(manager)
        #expect(try manager.decode(Self.valid).pixels.channels(x: 0, y: 0) == [1, 0, 0, 255])
    }

    @Test("after 3 crashes the plugin is disabled for the life of the host; other formats still decode")
    func repeatedCrashesDisable() throws {
        let host = host(try folder("crash_decode", .segfault(in: .decode)))
        let manager = host.makeCodersManager()
        for _ in 0..<3 {
            #expect(try codingError { _ = try manager.decode(Self.trigger) }.kind == .pluginCrashed)
        }
        let coder = try host.isolatedCoder(named: "crash_decode")
        let disabled = try codingError { _ = try Self.valid.withUnsafeBytes { try coder.probe($0) } }
        #expect(disabled.kind == .pluginDisabled)
        #expect(
            disabled.message
                == "plugin 'crash_decode' is disabled: its worker failed 3 times (last: plugin 'crash_decode' crashed in decode (SIGSEGV))"
        )
        // The manager skips the disabled coder, and says so: nothing else decodes its format.
        #expect(try codingError { _ = try manager.decode(Self.valid) }.kind == .pluginDisabled)
        try expectPNGStillDecodes(manager)
    }

    @Test("a crash in the entry function is a fault naming plugin and signal; the host goes on")
    func crashInEntry() throws {
        let host = host(try folder("crash_entry", .segfault(in: .entry)))
        let manager = host.makeCodersManager()
        let error = try codingError { _ = try manager.decode(Self.valid) }
        #expect(error.kind == .pluginUnavailable)
        #expect(
            error.message.hasPrefix(
                "coder 'crash_entry' could not be used for this data (looks like text, 4 bytes): "))
        #expect(error.message.hasSuffix("plugin 'crash_entry' crashed in its entry function (SIGSEGV)"))
        try expectPNGStillDecodes(manager)
        let fault = try #require(host.faults.first)
        #expect(fault.reason == .entryCrashed)
        #expect(fault.plugin == "crash_entry")
        #expect(fault.detail == "plugin 'crash_entry' crashed in its entry function (SIGSEGV)")
    }

    @Test(
        "verify opens each plugin in a child first: a crashing or hanging entry is a fault, even with isolation none",
        arguments: [PluginIsolation.Policy.none, .untrusted])
    func verifyScansInAChild(policy: PluginIsolation.Policy) throws {
        let folder = try folder("crash_entry", .abort(in: .entry))
        try folder.addHostile("hang_entry", .hang(in: .entry))
        let host = host(folder, isolation: PluginIsolation(policy: policy, openTimeout: .seconds(3)))
        let faults = host.verify()
        #expect(faults.count == 2, "\(faults)")
        #expect(host.openFault(of: "crash_entry")?.reason == .entryCrashed)
        #expect(
            host.openFault(of: "crash_entry")?.detail == "plugin 'crash_entry' crashed in its entry function (SIGABRT)")
        #expect(host.openFault(of: "hang_entry")?.reason == .entryHung)
        #expect(
            host.openFault(of: "hang_entry")?.detail
                == "plugin 'hang_entry' timed out in its entry function after 3 s; its worker was killed")
        #expect(host.openFault(of: "png") == nil)
        try expectPNGStillDecodes(host.makeCodersManager())
    }

    @Test("what an isolated plugin writes to standard error goes to the host's log, line by line")
    func standardErrorGoesToTheLog() throws {
        let records = LogRecords()
        let logger = Logger(label: "isolation-test") { _ in RecordingLogHandler(records: records) }
        let manager = host(try folder("chatty", .chatty), logger: logger).makeCodersManager()
        #expect(try manager.decode(Self.valid).width == 2)
        // The lines arrive on the worker's output thread; they are logged before long.
        let deadline = ContinuousClock.now + .seconds(10)
        while records.messages.count < 2 && ContinuousClock.now < deadline { usleep(10_000) }
        #expect(
            records.messages == [
                "plugin 'chatty' wrote: chatty: library noise on stderr", "plugin 'chatty' wrote: chatty: second line",
            ])
    }

    @Test("policies: untrusted isolates plugins outside the install folder, all isolates every coder, none nothing")
    func policies() throws {
        let folder = try folder("chatty", .chatty)
        #expect(host(folder, isolation: PluginIsolation(policy: .untrusted)).isIsolated("png"))
        #expect(host(folder, isolation: PluginIsolation(policy: .all)).isIsolated("chatty"))
        let inProcess = host(folder, isolation: PluginIsolation(policy: .none))
        #expect(!inProcess.isIsolated("png"))
        #expect(!inProcess.isIsolated("chatty"))
    }

    @Test("trusted plugins run in-process under the default policy, in a worker under all")
    func trustedPluginsRunInProcess() throws {
        let folder = try folder("crash_decode", .segfault(in: .decode))
        let trusted = PluginSearchPath(directories: [], trustedDirectories: [folder.path])
        let host = PluginHost(searchPath: trusted)
        Self.keepAlive.withLock { $0.append(folder) }
        #expect(!host.isIsolated("png"))
        #expect(!host.isIsolated("crash_decode"))
        #expect(try host.makeCodersManager().decode(Self.valid).width == 2)
        let all = PluginHost(searchPath: trusted, isolation: PluginIsolation(policy: .all))
        #expect(all.isIsolated("png"))
        #expect(try codingError { _ = try all.makeCodersManager().decode(Self.trigger) }.kind == .pluginCrashed)
    }

    @Test(
        "a missing worker is one fault per isolated plugin from the host's start, naming the plugin, the path tried and the fix; 20 decodes log nothing more"
    )
    func missingWorker() throws {
        let folder = try folder("chatty", .chatty)
        let records = LogRecords()
        let logger = Logger(label: "isolation-test") { _ in RecordingLogHandler(records: records) }
        let host = host(folder, isolation: PluginIsolation(workerExecutable: "/nonexistent/worker"), logger: logger)
        let expected = ["chatty": "libchatty.so", "png": "libWebImagePNG.so"].sorted { $0.key < $1.key }.map {
            "\(folder.file($0.value)): plugin worker missing (plugin '\($0.key)'): the plugin must run in a "
                + "webimage-plugin-worker process (its folder \(folder.path) is not one the app named as its own), "
                + "and there is none at /nonexistent/worker; install webimage-plugin-worker there, set "
                + "PluginIsolation.workerExecutable, or make the folder the app's plugins folder "
                + "(ImageManagerConfiguration.pluginsDirectory) to run the plugin in-process"
        }
        // Reported before anything is decoded, once, in the faults and the log.
        #expect(host.faults.map(\.description) == expected)
        #expect(records.messages == expected)
        let manager = host.makeCodersManager(logger: logger)
        let png = try Fixture.bytes("png/rgba8.png")
        for _ in 0..<20 {
            let error = try codingError { _ = try manager.decode(png) }
            #expect(error.kind == .pluginUnavailable)
            #expect(error.message == "coder 'png' could not be used for this data (401 bytes): \(expected[1])")
        }
        #expect(records.messages == expected)
        #expect(host.faults.map(\.description) == expected)
    }

    @Test(
        "plugins in <prefix>/lib/webimage/plugins run in <prefix>/bin/webimage-plugin-worker, where make install puts it"
    )
    func workerOfTheInstallPrefix() throws {
        let prefix = try TemporaryDirectory()
        let plugins = try prefix.folder("lib/webimage/plugins")
        try FileManager.default.copyItem(
            at: BuildProducts.manifest("png.json"), to: URL(fileURLWithPath: plugins + "/png.json"))
        try PluginsFolder.place(
            try BuildProducts.library("libWebImagePNG.so"), at: URL(fileURLWithPath: plugins + "/libWebImagePNG.so"))
        // The prefix's worker notes each start, then is the built worker.
        let started = prefix.file("started")
        let realWorker = try BuildProducts.requiredDirectory.appendingPathComponent("webimage-plugin-worker").path
        try prefix.writeExecutable(
            "bin/webimage-plugin-worker", "#!/bin/sh\necho started >> '\(started)'\nexec '\(realWorker)' \"$@\"\n")
        let host = PluginHost(searchPath: .standard(hostDirectories: [plugins], environment: [:]))
        #expect(host.isIsolated("png"))
        #expect(host.faults.isEmpty)
        #expect(try host.makeCodersManager().decode(try Fixture.bytes("png/rgba8.png")).width == 13)
        #expect(try String(contentsOfFile: started, encoding: .utf8) == "started\n")
    }
}

/// Log messages recorded by ``RecordingLogHandler``.
final class LogRecords: Sendable {
    private let recorded = TrackedMutex<[String]>([])
    var messages: [String] { recorded.withLock { $0 } }
    func append(_ message: String) { recorded.withLock { $0.append(message) } }
}

/// A swift-log handler that records every message at warning level or above.
struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .warning

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.append("\(event.message)")
    }
}
