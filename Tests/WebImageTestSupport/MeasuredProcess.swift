import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One run of a child process as the kernel accounted it.
public struct MeasuredRun: Sendable {
    /// The exit status; nil when a signal ended the process.
    public let exitStatus: Int32?
    /// The signal that ended the process, if one did (SIGKILL when the time limit passed).
    public let signal: Int32?
    /// True when the run was killed for passing its time limit.
    public let timedOut: Bool
    public let standardOutput: String
    public let standardError: String
    /// An upper bound of the child's peak resident set size in bytes, for limits: `wait4`'s
    /// `ru_maxrss`. `posix_spawn` runs the child in the test process's memory until it
    /// executes, and the kernel keeps that memory's high-water mark as the child's, so this is
    /// never below the test process's own peak; compare runs with ``ownPeakResidentBytes``.
    public let peakResidentBytes: Int
    /// The child's own peak resident set size in bytes: the highest `VmHWM` of its program read
    /// from `/proc/PID/status` while it ran (every 2 ms; a peak in its last 2 ms can be missed).
    public let ownPeakResidentBytes: Int
    /// Wall-clock time from start to exit, in seconds.
    public let seconds: Double

    /// The lines of standard error, without the final empty line.
    public var errorLines: [String] {
        var lines = standardError.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// Runs a tool as a child process it waits for itself (`posix_spawn`, then `wait4`), so the
/// kernel's accounting of that one child (peak resident memory) is available, unlike
/// `Foundation.Process`, which reaps its children on its own.
public enum MeasuredProcess {
    /// Runs `executable arguments...` with `environment` added to this process's, under an
    /// address-space limit (`prlimit --as`, so a regression fails an allocation instead of
    /// exhausting the machine; left out under ThreadSanitizer, whose shadow memory needs far
    /// more address space), killing it after `timeLimit`. Without `WEBIMAGE_CACHE_DIR` or
    /// `XDG_CACHE_HOME` in `environment`, a `webimage` run caches in a fresh folder of this run's,
    /// removed after it, never in the user's cache.
    /// - Throws: ``HarnessError`` when the process cannot start.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        timeLimit: Duration = .seconds(120), addressSpaceLimit: Int = 4 << 30
    ) throws -> MeasuredRun {
        expectOwnThreadWhenBlocking("running a measured process")
        let folder = try TemporaryDirectory()
        let outputPath = folder.file("stdout")
        let errorPath = folder.file("stderr")
        let limit = isThreadSanitized ? [] : ["/usr/bin/prlimit", "--as=\(addressSpaceLimit)", "--"]
        let command = limit + [executable] + arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        if environment["WEBIMAGE_CACHE_DIR"] == nil && environment["XDG_CACHE_HOME"] == nil {
            merged["WEBIMAGE_CACHE_DIR"] = folder.file("cache")
        }
        let argv = command.map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let started = ContinuousClock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        guard spawned == 0 else { throw HarnessError("cannot start \(command[0]): error \(spawned)") }
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        var peak = 0
        while true {
            peak = max(peak, highWaterMark(of: pid) ?? 0)
            let waited = wait4(pid, &status, WNOHANG, &usage)
            if waited == pid { break }
            if waited < 0 && errno != EINTR { throw HarnessError("wait4 failed: errno \(errno)") }
            if !timedOut && ContinuousClock.now - started > timeLimit {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(2_000)
        }
        let elapsed = ContinuousClock.now - started
        let signalled = status & 0x7F != 0 && status & 0x7F != 0x7F
        return MeasuredRun(
            exitStatus: signalled ? nil : (status >> 8) & 0xFF, signal: signalled ? status & 0x7F : nil,
            timedOut: timedOut,
            standardOutput: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "",
            peakResidentBytes: Int(usage.ru_maxrss) * 1024, ownPeakResidentBytes: peak,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// ``run(_:_:environment:timeLimit:addressSpaceLimit:)`` for async tests: the child is
    /// waited for on a thread of its own (``onOwnThread(_:)``), never on one of the few threads
    /// every test task of the process runs on.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        timeLimit: Duration = .seconds(120), addressSpaceLimit: Int = 4 << 30
    ) async throws -> MeasuredRun {
        // The closure is synchronous, so this calls the waiting overload above.
        try await onOwnThread {
            try run(
                executable, arguments, environment: environment, timeLimit: timeLimit,
                addressSpaceLimit: addressSpaceLimit)
        }
    }

    /// The `VmHWM` of process `pid` in bytes; nil once it exited (or before it has memory).
    static func highWaterMark(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kibibytes = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
        else { return nil }
        return kibibytes * 1024
    }

    /// True when this process runs under ThreadSanitizer (its runtime is loaded), as the
    /// tools the tests start then are too.
    public static let isThreadSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
}

extension MeasuredRun {
    /// Expects the peak resident memory below `limit` bytes, `what` naming the run in the
    /// failure. Not under ThreadSanitizer (`make tsan`), whose shadow memory adds a multiple of
    /// every page the process touches: a 400 MB decode alone peaks at 1.27 GB there.
    public func expectPeak(
        below limit: Int, _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard !MeasuredProcess.isThreadSanitized else { return }
        #expect(
            peakResidentBytes < limit, "\(what)peaked at \(peakResidentBytes) bytes", sourceLocation: sourceLocation)
    }
}
