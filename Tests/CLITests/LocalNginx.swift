import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// nginx serving a folder over HTTP/1.1 on 127.0.0.1 and a free port, with a temporary
/// prefix and an access log (`uri status` per line); killed by ``stop()``.
final class LocalNginx {
    let folder: TemporaryFolder
    let port: Int
    private let process: Process

    var base: String { "http://127.0.0.1:\(port)" }

    /// Starts nginx serving `files` (name → bytes) from its root.
    init(files: [String: [UInt8]]) throws {
        folder = try TemporaryFolder()
        for sub in ["www", "logs", "tmp"] {
            try FileManager.default.createDirectory(
                at: folder.url.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for (name, bytes) in files { try Data(bytes).write(to: folder.url.appendingPathComponent("www/\(name)")) }
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(probe, pointer, length)
                return getsockname(probe, pointer, &length)
            }
        }
        close(probe)
        port = Int(UInt16(bigEndian: address.sin_port))
        let path = folder.path
        try """
        daemon off; master_process off; pid \(path)/nginx.pid; error_log \(path)/logs/error.log warn;
        events { worker_connections 256; }
        http {
            log_format requests '$request_uri $status';
            access_log \(path)/logs/access.log requests;
            client_body_temp_path \(path)/tmp/body; proxy_temp_path \(path)/tmp/proxy;
            fastcgi_temp_path \(path)/tmp/fastcgi; uwsgi_temp_path \(path)/tmp/uwsgi; scgi_temp_path \(path)/tmp/scgi;
            default_type application/octet-stream;
            server { listen 127.0.0.1:\(port); root \(path)/www; }
        }
        """.write(toFile: path + "/nginx.conf", atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", path, "-c", path + "/nginx.conf", "-e", path + "/logs/error.log"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, process.isRunning, !FileManager.default.fileExists(atPath: path + "/nginx.pid") {
            usleep(20_000)
        }
        usleep(50_000)
    }

    deinit { stop() }

    /// Kills nginx (SIGKILL: a child of the test process may start with SIGTERM blocked) and
    /// removes its prefix.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        folder.remove()
    }

    /// The access log's lines so far.
    var requests: [String] {
        let text = (try? String(contentsOfFile: folder.path + "/logs/access.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }
}
