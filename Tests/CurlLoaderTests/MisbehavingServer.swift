import Foundation
import WebImageCore
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP server on 127.0.0.1 that breaks the protocol on purpose, one behaviour per
/// path: `/drop` (chunked body cut off mid-chunk), `/lie` (Content-Length larger than the
/// body, then close), `/stall` (headers, then nothing until the server stops), `/malformed`
/// (a status line that is not HTTP), `/bomb` (a gzip body that inflates to 50 MB), `/drip...`
/// (any path starting so: a 1,000-byte body at 2 bytes a second, one byte every 500 ms, never
/// idle; ``dripRequests`` counts them), `/pieces` (``piecesBody`` as HTTP chunks of 1 byte to
/// 150 KB, small and large in turn, sent at once: libcurl hands each chunk's data to the
/// client apart, within one read). Every connection is served on its own thread;
/// ``stop()`` closes them all.
final class MisbehavingServer: Sendable {
    let port: Int
    private let listener: Int32
    private let connections = TrackedMutex<Set<Int32>>([])
    private let stopped = TrackedMutex(false)
    /// 50 MB of zeros, gzip-compressed at test time.
    private let bomb: [UInt8]

    static let bombInflatedSize = 50_000_000
    /// The Content-Length of a `/drip` body.
    static let dripLength = 1000

    /// The sizes of the chunks `/pieces` sends, small and large in turn.
    static let pieceSizes = [100, 5_000, 150_000, 7, 16_384, 16_385, 80_000, 1, 60_000]
    /// The body of `/pieces`: byte `i` is `i % 251`.
    static let piecesBody = (0..<pieceSizes.reduce(0, +)).map { UInt8($0 % 251) }

    private let drips = TrackedMutex(0)
    /// Requests for `/drip...` paths received so far.
    var dripRequests: Int { drips.withLock { $0 } }

    var base: String { "http://127.0.0.1:\(port)" }

    init() throws {
        expectOwnThreadWhenBlocking("starting the misbehaving server")
        bomb = try Self.gzipOfZeros(count: Self.bombInflatedSize)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = LoopbackPort.address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw HarnessError("cannot listen on 127.0.0.1")
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Closes the listener and every connection (stalled ones included).
    func stop() {
        let wasStopped = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        connections.withLock { open in
            for descriptor in open { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        while !stopped.withLock({ $0 }) {
            let client = accept(listener, nil, nil)
            if client < 0 { break }
            connections.withLock { _ = $0.insert(client) }
            let thread = Thread { [self] in
                serve(client)
                connections.withLock { _ = $0.remove(client) }
                close(client)
            }
            thread.start()
        }
        close(listener)
    }

    private func serve(_ client: Int32) {
        guard let path = readRequestPath(client) else { return }
        if path.hasPrefix("/drip") { return drip(client) }
        switch path {
        case "/drop":
            send(client, "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n")
            send(client, "2710\r\n" + String(repeating: "x", count: 3000))
        case "/lie":
            send(client, "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 5000\r\n\r\n")
            send(client, String(repeating: "y", count: 1200))
        case "/stall":
            send(client, "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 100\r\n\r\n")
            var byte: UInt8 = 0
            _ = recv(client, &byte, 1, 0)  // returns when the server stops or the client leaves
        case "/pieces":
            var response = Array(
                "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            var offset = 0
            for size in Self.pieceSizes {
                response += Array("\(String(size, radix: 16))\r\n".utf8) + Self.piecesBody[offset..<(offset + size)]
                response += Array("\r\n".utf8)
                offset += size
            }
            send(client, response + Array("0\r\n\r\n".utf8))
        case "/malformed":
            send(client, "HTPT/9 nonsense\r\nthis is : not\r\n\r\nbody")
        case "/bomb":
            send(
                client,
                "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n"
            )
            send(client, bomb)
        default:
            send(client, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
        }
    }

    /// A 2-bytes-a-second body (one byte every 500 ms) until it is complete, the client
    /// leaves or the server stops.
    private func drip(_ client: Int32) {
        drips.withLock { $0 += 1 }
        send(client, "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(Self.dripLength)\r\n\r\n")
        for _ in 0..<Self.dripLength {
            guard !stopped.withLock({ $0 }), send(client, [UInt8(ascii: "d")]) else { return }
            usleep(500_000)
        }
    }

    /// Reads up to the end of the request head (at most 16 KB) and returns its path.
    private func readRequestPath(_ client: Int32) -> String? {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 16_384 {
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            head += buffer[0..<count]
            if head.count >= 4, head.suffix(4) == [13, 10, 13, 10] { break }
        }
        let line = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
        return line.count >= 2 ? String(line[1]) : nil
    }

    private func send(_ client: Int32, _ text: String) {
        send(client, Array(text.utf8))
    }

    /// Sends all of `bytes`; false when the connection failed first.
    @discardableResult
    private func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    private static func gzipOfZeros(count: Int) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "head -c \(count) /dev/zero | gzip -1"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }
}
