import Foundation
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `Tests/Fixtures/servers/digest-auth-server.py` run by python3 on 127.0.0.1 and a free port:
/// `/digest/secret.txt` answers only a valid digest response (RFC 7616, MD5, qop=auth) for
/// ``user`` and ``password``. ``log()`` lists what it answered, one `"<status> <scheme>"` per
/// request. Killed when released.
final class DigestAuthServer: Sendable {
    static let user = "digest-user"
    static let password = "digest-secret"

    let port: Int
    private let process: Process
    private let logPath: String

    var url: String { "http://127.0.0.1:\(port)/digest/secret.txt" }

    /// Starts the server and waits (at most 5 s) until it accepts connections.
    init() throws {
        expectOwnThreadWhenBlocking("starting the digest server")
        port = try LoopbackPort.free()
        logPath = NSTemporaryDirectory() + "webimage-digest-" + UUID().uuidString + ".log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            Fixture.path("servers/digest-auth-server.py"), String(port), Self.user, Self.password, logPath,
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        guard LoopbackPort.waitUntilListening(port, process: process) else {
            stop()
            throw HarnessError("the digest server did not start on port \(port)")
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: logPath)
    }

    /// The requests answered so far, in order: `"401 none"`, `"200 Digest"`, ...
    func log() throws -> [String] {
        try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Kills the server with SIGKILL (a child of the test process may inherit a blocked SIGTERM)
    /// and waits for it.
    private func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
