import Foundation
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP/1.1 server listening on every address of a network namespace (IPv4 and IPv6,
/// `[::]` dual-stack) on ports of its own, recording the local address of every connection it
/// accepts, so a test can show which of its addresses a client reached and which it never did.
///
/// `GET /redirect?to=<percent-encoded URL>` answers 302 to that URL; `GET /unavailable-first/<n>/...`
/// answers 503 to the first `n` requests of that exact target, then as any other path: 200 with
/// the server's ``answerBody``. Every answer closes its connection.
public final class RecordingHTTPServer: Sendable {
    /// The body of every 200 answer.
    public static let body = Array("namespace host\n".utf8)

    /// The body of every 200 answer of this server; default ``body``.
    public let answerBody: [UInt8]
    /// The ports, in the order asked for.
    public let ports: [Int]
    private let listeners: [Int32]
    private let accepted = TrackedMutex<[String]>([])
    private let stopped = TrackedMutex(false)
    private let targets = TrackedMutex<[String]>([])

    /// Listens on `portCount` free ports of `namespace` (the test process's own namespace when
    /// nil), answering 200 with `body`.
    public init(in namespace: NetworkNamespace?, portCount: Int = 1, body: [UInt8] = RecordingHTTPServer.body) throws {
        answerBody = body
        let open: @Sendable () throws -> [Int32] = { try (0..<portCount).map { _ in try Self.listen() } }
        let listeners = try namespace.map { try $0.inside(open) } ?? open()
        self.listeners = listeners
        ports = listeners.map(Self.port)
        for listener in listeners {
            Thread { [self] in acceptLoop(listener) }.start()
        }
    }

    deinit { stop() }

    /// The local addresses (`10.201.0.1`, `fd00:77::1`; IPv4-mapped ones as IPv4) of the
    /// connections accepted so far, in order.
    public var acceptedAddresses: [String] { accepted.withLock { $0 } }

    /// How many requests for `target` (a path with its query) came so far.
    public func requestCount(for target: String) -> Int {
        targets.withLock { $0.filter { $0 == target }.count }
    }

    /// Closes the listeners.
    public func stop() {
        let wasStopped = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        for listener in listeners {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    private static func listen() throws -> Int32 {
        let listener = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw HarnessError("socket failed") }
        var off: Int32 = 0
        setsockopt(listener, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        guard bound == 0, Glibc.listen(listener, 64) == 0 else {
            close(listener)
            throw HarnessError("cannot listen on [::]")
        }
        return listener
    }

    private static func port(of listener: Int32) -> Int {
        var address = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin6_port))
    }

    private func acceptLoop(_ listener: Int32) {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            accepted.withLock { $0.append(Self.localAddress(of: connection)) }
            serve(connection)
            close(connection)
        }
    }

    private static func localAddress(of connection: Int32) -> String {
        var address = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(connection, $0, &length) }
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        inet_ntop(AF_INET6, &address.sin6_addr, &text, socklen_t(text.count))
        let string = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return string.hasPrefix("::ffff:") && string.contains(".") ? String(string.dropFirst(7)) : string
    }

    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while request.count < 65_536, !request.ends(with: Array("\r\n\r\n".utf8)) {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { return }
            request += buffer[0..<count]
        }
        let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
        let target = line.count > 1 ? String(line[1]) : "/"
        let served = targets.withLock { targets in
            targets.append(target)
            return targets.filter { $0 == target }.count
        }
        let head: String
        var body: [UInt8] = []
        if target.hasPrefix("/redirect?to="), let location = target.dropFirst(13).removingPercentEncoding {
            head = "HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        } else if let failures = Self.failuresFirst(target), served <= failures {
            head = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        } else {
            body = answerBody
            head =
                "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(body.count)\r\n"
                + "Connection: close\r\n\r\n"
        }
        let response = Array(head.utf8) + body
        _ = send(connection, response, response.count, Int32(MSG_NOSIGNAL))
    }

    /// The `n` of an `/unavailable-first/<n>/...` target, or nil.
    private static func failuresFirst(_ target: String) -> Int? {
        let parts = target.split(separator: "/")
        guard parts.count > 2, parts[0] == "unavailable-first" else { return nil }
        return Int(parts[1])
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
