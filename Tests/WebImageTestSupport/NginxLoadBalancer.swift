import Foundation

/// An nginx load balancer on 127.0.0.1, started by a test in front of servers on loopback
/// ports: round robin, and a request that fails on one member (refused or reset connection,
/// no header, 502 or 503) is passed to the next (`proxy_next_upstream`), as a fleet's
/// balancer is set up in front of image servers. A member that failed once gets no request
/// for 30 seconds.
public final class NginxLoadBalancer: @unchecked Sendable {
    // @unchecked: every property is set in init and only read afterwards.
    public let folder: TemporaryDirectory
    public let port: Int
    private let process: Process

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts the balancer in front of the servers listening on 127.0.0.1 at `members`.
    public init(members: [Int]) throws {
        expectOwnThreadWhenBlocking("starting nginx")
        folder = try TemporaryDirectory()
        for sub in ["logs", "tmp"] {
            try FileManager.default.createDirectory(
                at: folder.url.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let token = UUID().uuidString
        for _ in 0..<5 {
            let port = try LoopbackPort.free()
            let config = Self.config(folder: folder.path, port: port, members: members, token: token)
            if let process = try NginxServer.launch(folder: folder.path, config: config, port: port, token: token) {
                self.process = process
                self.port = port
                return
            }
        }
        throw NginxServer.ServerError(
            description: "the nginx balancer did not start: \(NginxServer.errorLog(folder.path))")
    }

    deinit { stop() }

    /// Stops nginx (SIGKILL, as `NginxServer.stop`) and waits for it to exit.
    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The requests answered so far, one `uri|status|members tried|their statuses` line each
    /// (nginx's `$upstream_addr` and `$upstream_status`: a passed-on request lists each member
    /// it tried, separated by ", "). nginx logs a request after answering it, so a client that
    /// finished waits up to `within` (default 5 seconds) for the `atLeast` lines it expects.
    public func answered(atLeast: Int = 0, within: Duration = .seconds(5)) -> [String] {
        let deadline = ContinuousClock.now + within
        while true {
            let text = (try? String(contentsOfFile: folder.file("logs/access.log"), encoding: .utf8)) ?? ""
            // Not the balancer's own answer to the start-up check.
            let lines = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("/whoami|") }
            if lines.count >= atLeast || ContinuousClock.now > deadline { return lines }
            usleep(20_000)
        }
    }

    private static func config(folder: String, port: Int, members: [Int], token: String) -> String {
        let servers = members.map { "server 127.0.0.1:\($0) max_fails=1 fail_timeout=30s;" }
        return """
            \(NginxServer.mainDirectives(folder: folder))
            http {
                log_format balanced '$request_uri|$status|$upstream_addr|$upstream_status';
                access_log \(folder)/logs/access.log balanced;
                \(NginxServer.temporaryPaths(folder: folder))
                upstream fleet { \(servers.joined(separator: " ")) }
                server {
                    listen 127.0.0.1:\(port);
                    location = /whoami { return 200 "\(token)"; }
                    location / {
                        proxy_pass http://fleet;
                        proxy_next_upstream error timeout http_502 http_503;
                        proxy_connect_timeout 2s;
                        proxy_read_timeout 60s;
                    }
                }
            }
            """
    }
}
