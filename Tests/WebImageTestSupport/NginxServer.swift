import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real nginx started by a test on 127.0.0.1 with a temporary prefix: an HTTP/1.1 port and
/// an HTTPS port with HTTP/2 (a self-signed certificate made with `openssl req`). Stopped by
/// ``stop()`` or when released.
public final class NginxServer: @unchecked Sendable {
    // @unchecked: every property is set in init and only read afterwards; stop() is
    // idempotent and guarded by the process's own state.
    public let folder: TemporaryDirectory
    public let httpPort: Int
    public let httpsPort: Int
    private let process: Process

    /// The files the server serves under `/static/`, by name.
    public let files: [String: [UInt8]]

    public var http: String { "http://127.0.0.1:\(httpPort)" }
    public var https: String { "https://127.0.0.1:\(httpsPort)" }

    public static let user = "alice"
    public static let password = "s3cret"

    public init(files extraFiles: [String: [UInt8]] = [:]) throws {
        expectOwnThreadWhenBlocking("starting nginx")
        folder = try TemporaryDirectory()
        var files = extraFiles
        files["small.bin"] = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        files["large.bin"] = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 9) }
        files["text.txt"] = Array(String(repeating: "WebImage loads images. ", count: 2000).utf8)
        files["slow.bin"] = [UInt8](repeating: 0x5A, count: 60_000)
        files["medium.bin"] = [UInt8](repeating: 0x4D, count: 200_000)
        self.files = files
        for (name, bytes) in files { try folder.write("www/static/\(name)", bytes) }
        try folder.write("www/auth/secret.txt", "authorized")
        try folder.write("htpasswd", "\(Self.user):{PLAIN}\(Self.password)\n")
        for sub in ["logs", "tmp"] {
            try FileManager.default.createDirectory(
                at: folder.url.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try Self.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                "-subj", "/CN=127.0.0.1", "-keyout", folder.path + "/key.pem", "-out", folder.path + "/cert.pem",
            ])
        var lastError: (any Error)?
        // Answered at /whoami: another test's server that took one of the ports first (nginx
        // retries a busy port for seconds) would accept connections too, but not know this.
        let token = UUID().uuidString
        for _ in 0..<5 {
            let ports = (try LoopbackPort.free(), try LoopbackPort.free())
            let config = Self.config(folder: folder.path, httpPort: ports.0, httpsPort: ports.1, token: token)
            // nginx serves only once every listening socket is bound, so its own answer on the
            // HTTP port means both ports are its own.
            if let process = try Self.launch(folder: folder.path, config: config, port: ports.0, token: token) {
                self.process = process
                self.httpPort = ports.0
                self.httpsPort = ports.1
                return
            }
            lastError = ServerError(description: "nginx did not start: \(Self.errorLog(folder.path))")
        }
        throw lastError!
    }

    deinit { stop() }

    /// Stops nginx and waits for it to exit. SIGKILL: a child of the test process may
    /// start with SIGTERM blocked, which nginx without a master process never unblocks.
    public func stop() {
        expectOwnThreadWhenBlocking("stopping nginx")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Replaces the file `name` served under `/static/` (and the other locations over it) with
    /// `bytes`, dated 5 seconds later than now (whatever the clock's resolution), so its ETag
    /// and Last-Modified change.
    public func replace(_ name: String, with bytes: [UInt8]) throws {
        let path = folder.file("www/static/\(name)")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let later = Date().addingTimeInterval(5)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
    }

    /// The requests nginx answered so far, one `uri|accept|if-none-match|status` line each,
    /// waiting up to `within` (default 5 seconds, for a loaded machine) for the log to catch up
    /// with `atLeast` lines. nginx logs a request after its response went out, so a client that
    /// finished may read the log before the line: a count needs the lines it expects as
    /// `atLeast`; 0 reads the log once (for a request that must not have come).
    public func requests(matching path: String, atLeast: Int, within: Duration = .seconds(5)) -> [String] {
        logLines("access.log", startingWith: path, atLeast: atLeast, within: within)
    }

    /// The serial numbers of the connections that served the requests whose URI starts with
    /// `path`, once each, waiting up to 5 seconds for the log to catch up with `requests` lines.
    public func connections(servingRequestsTo path: String, requests: Int) -> Set<String> {
        let lines = logLines("connections.log", startingWith: path, atLeast: requests)
        return Set(lines.compactMap { $0.split(separator: " ").last.map(String.init) })
    }

    /// The `Cookie` header of each request whose URI starts with `path` (`-` for none), waiting
    /// up to 5 seconds for the log to catch up with `atLeast` lines.
    public func cookies(sentTo path: String, atLeast: Int = 1) -> [String] {
        logLines("cookies.log", startingWith: path, atLeast: atLeast).map {
            String($0.split(separator: "|", omittingEmptySubsequences: false).last ?? "")
        }
    }

    /// The requests whose URI starts with `path` as `uri|protocol|x-webimage|authorization|status`
    /// lines (`HTTP/1.1` or `HTTP/2.0`; `-` for a header not sent), waiting up to 5 seconds for
    /// the log to catch up with `atLeast` lines (0 reads it once).
    public func requestHeads(matching path: String, atLeast: Int) -> [String] {
        logLines("heads.log", startingWith: path, atLeast: atLeast)
    }

    /// The lines of the log `name` that start with `path`, read again every 20 ms until there
    /// are `atLeast` or `within` passed.
    private func logLines(_ name: String, startingWith path: String, atLeast: Int, within: Duration = .seconds(5))
        -> [String]
    {
        let deadline = Date().addingTimeInterval(Double(within.components.seconds))
        while true {
            let text = (try? String(contentsOfFile: folder.path + "/logs/" + name, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").map(String.init).filter { $0.hasPrefix(path) }
            if lines.count >= atLeast || Date() > deadline { return lines }
            usleep(20_000)
        }
    }

    /// Writes `config` to `folder`/nginx.conf and starts nginx on it: the process once it
    /// answers `token` at `/whoami` on `port`, or nil (it is then killed) when it exits or
    /// another server answers there.
    static func launch(folder: String, config: String, port: Int, token: String) throws -> Process? {
        try config.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", folder, "-c", folder + "/nginx.conf", "-e", folder + "/logs/error.log"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        if LoopbackPort.waitUntilListening(port, process: process)
            && answersToken(port: port, token: token, process: process)
        {
            return process
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return nil
    }

    /// The directives a test's nginx starts with (one worker in the foreground, its pid and
    /// error log in `folder`), and those its http block needs for its temporary files.
    static func mainDirectives(folder: String) -> String {
        """
        daemon off;
        master_process off;
        worker_processes 1;
        pid \(folder)/nginx.pid;
        error_log \(folder)/logs/error.log warn;
        events { worker_connections 1024; }
        """
    }

    static func temporaryPaths(folder: String) -> String {
        """
        client_body_temp_path \(folder)/tmp/body;
            proxy_temp_path \(folder)/tmp/proxy;
            fastcgi_temp_path \(folder)/tmp/fastcgi;
            uwsgi_temp_path \(folder)/tmp/uwsgi;
            scgi_temp_path \(folder)/tmp/scgi;
        """
    }

    static func errorLog(_ folder: String) -> String {
        (try? String(contentsOfFile: folder + "/logs/error.log", encoding: .utf8)) ?? "(no log)"
    }

    /// True once `GET /whoami` on 127.0.0.1:`port` answers `token` (at most 5 seconds), false
    /// when another server answers, `process` exits or the time runs out.
    private static func answersToken(port: Int, token: String, process: Process) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, process.isRunning {
            if let body = LoopbackPort.plainGet(port: port, path: "/whoami") {
                return body.hasSuffix("\r\n\r\n" + token)
            }
            usleep(20_000)
        }
        return false
    }

    private static func config(folder: String, httpPort: Int, httpsPort: Int, token: String) -> String {
        """
        \(mainDirectives(folder: folder))
        http {
            log_format requests '$request_uri|$http_accept|$http_if_none_match|$status';
            access_log \(folder)/logs/access.log requests;
            log_format connections '$request_uri $connection';
            access_log \(folder)/logs/connections.log connections;
            log_format cookies '$request_uri|$http_cookie';
            access_log \(folder)/logs/cookies.log cookies;
            log_format heads '$request_uri|$server_protocol|$http_x_webimage|$http_authorization|$status';
            access_log \(folder)/logs/heads.log heads;
            \(temporaryPaths(folder: folder))
            types { text/plain txt; application/octet-stream bin; image/png png; image/jpeg jpg; }
            default_type application/octet-stream;
            sendfile on;
            keepalive_requests 10000;
            gzip on;
            gzip_min_length 1;
            gzip_types text/plain;
            server {
                listen 127.0.0.1:\(httpPort);
                listen 127.0.0.1:\(httpsPort) ssl http2;
                ssl_certificate \(folder)/cert.pem;
                ssl_certificate_key \(folder)/key.pem;
                root \(folder)/www;
                location = /whoami { return 200 "\(token)"; }
                location /auth/ {
                    auth_basic "webimage";
                    auth_basic_user_file \(folder)/htpasswd;
                }
                location = /set-cookie { add_header Set-Cookie "webimage=yes; Path=/"; return 200 "set"; }
                location = /redirect { return 302 /static/small.bin; }
                location = /redirect-twice { return 301 /redirect; }
                location = /loop { return 302 /loop; }
                location = /error { return 500 "boom"; }
                location = /unavailable { return 503 "later"; }
                # `/as/NAME/ANY...`: the static file NAME whatever path follows it, so a test
                # picks a URL's last segment (`..%2f`, `%0a`...) and still gets an image.
                location /as/ { rewrite ^/as/([^/]+)/ /static/$1 break; }
                location /slow/ {
                    alias \(folder)/www/static/;
                    limit_rate 20k;
                    limit_rate_after 0;
                    # `?rate=N` sets another rate (bytes per second), to keep a transfer open longer.
                    # nginx counts whole seconds from the request's start: N bytes may go at once,
                    # and 2N by the next tick of the clock, so a body of B bytes takes at least
                    # ceil(B / N) - 2 seconds.
                    if ($arg_rate != "") { set $limit_rate $arg_rate; }
                    # A resumed (ranged) request comes at full speed.
                    if ($http_range != "") { set $limit_rate 0; }
                }
                # `/documents/NAME`: the static file NAME served with a document's type
                # (`.pdf`, `.html`), for tests of what is not an image.
                location /documents/ {
                    alias \(folder)/www/static/;
                    types { application/pdf pdf; text/html html; }
                }
                # The static files with a freshness lifetime (for revalidation tests):
                # `/expires-1s/` (Expires and Cache-Control max-age=1), `/s-maxage-1s/` (max-age
                # an hour, s-maxage 1 s), `/no-cache/` and `/no-store/`; on 304s too.
                location /expires-1s/ { alias \(folder)/www/static/; expires 1s; }
                location /s-maxage-1s/ {
                    alias \(folder)/www/static/;
                    add_header Cache-Control "max-age=3600, s-maxage=1";
                }
                location /no-cache/ { alias \(folder)/www/static/; add_header Cache-Control "no-cache"; }
                location /no-store/ { alias \(folder)/www/static/; add_header Cache-Control "no-store"; }
            }
        }
        """
    }

    static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ServerError(description: "\(executable) \(arguments.joined(separator: " ")) failed")
        }
    }

    public struct ServerError: Error, CustomStringConvertible {
        public var description: String
    }
}
