import Foundation

/// HTTP/1 requests written all at once on one connection (pipelined), as a client that
/// pipelines does, and their answers read back in the order they came.
public enum PipelinedHTTP {
    /// One request: method, path, extra headers (`Host` is always sent) and HTTP version
    /// (default `HTTP/1.1`).
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var headers: [String: String]
        public var version: String

        public init(
            _ method: String = "GET", _ path: String, headers: [String: String] = [:], version: String = "HTTP/1.1"
        ) {
            self.method = method
            self.path = path
            self.headers = headers
            self.version = version
        }
    }

    /// The answers to `requests`, written in one `send` to 127.0.0.1:`port`, read within
    /// `within` (a body's length is its `Content-Length`; a HEAD or 304 answer has none).
    /// - Throws: ``HarnessError`` when the connection fails, closes early or the time runs out.
    public static func exchange(port: Int, _ requests: [Request], within: Duration = .seconds(30)) throws
        -> [HTTPExchange]
    {
        try exchange(port: port, requests, within: within, expectingClose: false)
    }

    /// The answers to `requests`, as ``exchange(port:_:within:)`` reads them, from a server
    /// that must then close the connection, as it does after a request with `Connection:
    /// close`.
    /// - Throws: ``HarnessError`` as ``exchange(port:_:within:)`` does, when more bytes follow
    ///   the answers, or when the connection is still open once `within` has passed.
    public static func exchangeUntilClosed(port: Int, _ requests: [Request], within: Duration = .seconds(10)) throws
        -> [HTTPExchange]
    {
        try exchange(port: port, requests, within: within, expectingClose: true)
    }

    private static func exchange(port: Int, _ requests: [Request], within: Duration, expectingClose: Bool) throws
        -> [HTTPExchange]
    {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw HarnessError("socket failed") }
        defer { close(socketFD) }
        var timeout = timeval(tv_sec: Int(within.components.seconds), tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = LoopbackPort.address(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw HarnessError("cannot connect to 127.0.0.1:\(port)") }
        let text = requests.map { request in
            "\(request.method) \(request.path) \(request.version)\r\nHost: 127.0.0.1\r\n"
                + request.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n"
        }.joined()
        let bytes = Array(text.utf8)
        guard send(socketFD, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw HarnessError("cannot send the requests")
        }
        var received: [UInt8] = []
        var answers: [HTTPExchange] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while answers.count < requests.count {
            if let (answer, length) = try nextAnswer(in: received, method: requests[answers.count].method) {
                answers.append(answer)
                received.removeFirst(length)
                continue
            }
            let count = recv(socketFD, &buffer, buffer.count, 0)
            guard count > 0 else {
                throw HarnessError("the connection ended after \(answers.count) of \(requests.count) answers")
            }
            received += buffer[0..<count]
        }
        if expectingClose {
            guard received.isEmpty else { throw HarnessError("\(received.count) bytes followed the answers") }
            let count = recv(socketFD, &buffer, buffer.count, 0)
            guard count == 0 else {
                throw HarnessError(
                    count > 0 ? "\(count) bytes followed the answers" : "the connection stayed open after the answers")
            }
        }
        return answers
    }

    /// The first whole answer in `bytes` and its length in bytes, or nil when it is not all there.
    private static func nextAnswer(in bytes: [UInt8], method: String) throws -> (HTTPExchange, Int)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4,
            let headEnd = (0...(bytes.count - 4)).first(where: { bytes[$0..<$0 + 4].elementsEqual(separator) })
        else { return nil }
        let head = try HTTPExchange.parse(Array(bytes[..<(headEnd + 4)]))
        let bodyLength = method == "HEAD" || head.status == 304 ? 0 : Int(head.headers["content-length"] ?? "0") ?? 0
        let length = headEnd + 4 + bodyLength
        guard bytes.count >= length else { return nil }
        return (try HTTPExchange.parse(Array(bytes[..<length])), length)
    }
}
