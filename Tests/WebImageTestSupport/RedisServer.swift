import Foundation

/// A `redis-server` started for one test: on 127.0.0.1, a free random port, no persistence, a
/// temporary folder; stopped by ``stop()`` or when released.
public final class RedisServer: @unchecked Sendable {
    // @unchecked: `process` is only touched by the test that owns the server.
    public let port: Int
    /// The server's own temporary folder (its working directory), removed with the server.
    public let folder: String
    private var process: Process?

    public var url: String { "redis://127.0.0.1:\(port)" }

    /// Starts a server and waits (at most 5 s) until it accepts connections.
    public init() throws {
        folder = NSTemporaryDirectory() + "webimage-redis-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = try LoopbackPort.free()
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Starts the server on ``port`` (again, after ``stop()``).
    public func start() throws {
        expectOwnThreadWhenBlocking("starting redis-server")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        process.arguments = [
            "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", folder,
            "--daemonize", "no", "--loglevel", "warning",
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(5)
        while !LoopbackPort.accepts(port) {
            guard Date() < deadline, process.isRunning else {
                stop()
                throw ServerError(description: "redis-server did not start on port \(port)")
            }
            usleep(10_000)
        }
    }

    /// Stops the server with SIGKILL (it keeps no data, and a child of the test process may
    /// inherit a blocked SIGTERM) and waits for it.
    public func stop() {
        expectOwnThreadWhenBlocking("stopping redis-server")
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// Runs one command with `redis-cli` against the server and returns its reply as
    /// `redis-cli --no-raw` prints it, an integer as `:N` (`:100`, `"text"`, `(nil)`).
    public func command(_ arguments: [String]) throws -> String {
        expectOwnThreadWhenBlocking("running redis-cli")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        process.arguments = ["-h", "127.0.0.1", "-p", String(port), "--no-raw"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "(integer) ", with: ":")
    }

    /// Freezes the server (SIGSTOP): connections stay open and commands get no answer.
    public func pause() { if let process { kill(process.processIdentifier, SIGSTOP) } }

    /// Lets a paused server run again (SIGCONT).
    public func resume() { if let process { kill(process.processIdentifier, SIGCONT) } }

    public struct ServerError: Error, CustomStringConvertible {
        public var description: String
    }
}
