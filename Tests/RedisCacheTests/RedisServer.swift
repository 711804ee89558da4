import Foundation

/// A `redis-server` started for one test: on 127.0.0.1, a free random port, no persistence, a
/// temporary folder; stopped by ``stop()`` or when released.
final class RedisServer: @unchecked Sendable {
    // @unchecked: `process` is only touched by the test that owns the server.
    let port: Int
    let folder: String
    private var process: Process?

    var url: String { "redis://127.0.0.1:\(port)" }

    /// Starts a server and waits (at most 5 s) until it accepts connections.
    init() throws {
        folder = NSTemporaryDirectory() + "webimage-redis-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = try Self.freePort()
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Starts the server on ``port`` (again, after ``stop()``).
    func start() throws {
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
        while !Self.accepts(port: port) {
            guard Date() < deadline, process.isRunning else {
                stop()
                throw ServerError(description: "redis-server did not start on port \(port)")
            }
            usleep(10_000)
        }
    }

    /// Stops the server with SIGKILL (it keeps no data, and a child of the test process may
    /// inherit a blocked SIGTERM) and waits for it.
    func stop() {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// Freezes the server (SIGSTOP): connections stay open and commands get no answer.
    func pause() { if let process { kill(process.processIdentifier, SIGSTOP) } }

    /// Lets a paused server run again (SIGCONT).
    func resume() { if let process { kill(process.processIdentifier, SIGCONT) } }

    struct ServerError: Error, CustomStringConvertible {
        var description: String
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then released).
    static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw ServerError(description: "socket failed") }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, length) == 0 && getsockname(socketFD, $0, &length) == 0
            }
        }
        guard bound else { throw ServerError(description: "bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(port: Int) -> Bool {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return false }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
