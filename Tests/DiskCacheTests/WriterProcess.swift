import Foundation

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
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
    }

    /// Kills the writer with SIGKILL and waits for it.
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits for the writer to exit (killing it after `timeout` seconds) and returns its output and status.
    func finish(timeout: TimeInterval = 120) -> (output: String, status: Int32) {
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
