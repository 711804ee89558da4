import Foundation
import WebImageTestSupport

/// The `DiskCacheWriter` child (Tests/DiskCacheWriter), run from the build folder next to this test binary.
struct WriterProcess {
    static let executable: URL = {
        let testBinary =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: testBinary).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("DiskCacheWriter")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: "DiskCacheWriter")
    }()

    let process = Process()
    private let output = Pipe()

    /// Starts the writer with `arguments`; its standard output is kept for ``finish()``.
    init(_ arguments: [String]) throws {
        expectOwnThreadWhenBlocking("starting a writer process")
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
    }

    /// Waits until a `write` writer has stored its first entry (it prints "stored"), at most
    /// `timeout` (default 120 s: a bound for a writer that hangs, well above a TSan build's start).
    /// - Throws: ``HarnessError`` when the writer ends or the time runs out first.
    func waitForFirstEntry(timeout: Duration = .seconds(120)) throws {
        let expected = Array("stored\n".utf8)
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        let descriptor = output.fileHandleForReading.fileDescriptor
        while received.count < expected.count {
            guard ContinuousClock.now < deadline else {
                throw HarnessError("the disk cache writer stored nothing within \(timeout)")
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(descriptor, &byte, 1) == 1 else {
                throw HarnessError("the disk cache writer ended before storing an entry")
            }
            received.append(byte)
        }
        guard received == expected else {
            throw HarnessError("the disk cache writer printed \(String(decoding: received, as: UTF8.self))")
        }
    }

    /// Kills the writer with SIGKILL and waits for it.
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits for the writer to exit (killing it after `timeout` seconds) and returns its output and status.
    func finish(timeout: TimeInterval = 120) -> (output: String, status: Int32) {
        expectOwnThreadWhenBlocking("waiting for a writer process")
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        kill()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (text, process.terminationStatus)
    }

    /// Runs `verify` on `directory` and returns its counts (present, bad, bytes, count).
    static func verify(_ directory: String, maxSize: Int) throws -> [String: UInt64] {
        let result = try WriterProcess(["verify", directory, String(maxSize)]).finish()
        var counts: [String: UInt64] = ["status": UInt64(result.status)]
        for field in result.output.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = field.split(separator: "=")
            if parts.count == 2 { counts[String(parts[0])] = UInt64(parts[1]) }
        }
        return counts
    }
}
