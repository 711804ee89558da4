import Foundation
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// A DNS server (UDP port 53 on an address of a network namespace) whose answer for every
/// name changes between lookups, as a DNS rebinding attacker's does: the first `A` query is
/// answered with `first`, every later one with `then` (TTL 0). `AAAA` and other queries get
/// an empty answer.
public final class RebindingNameServer: Sendable {
    private let socketFD: Int32
    private let first: [UInt8]
    private let then: [UInt8]
    private let queries = TrackedMutex(0)

    /// Listens on `address`:53 in `namespace`; `first` and `then` are IPv4 addresses.
    public init(in namespace: NetworkNamespace, on address: String, first: String, then: String) throws {
        func bytes(_ text: String) throws -> [UInt8] {
            var value = in_addr()
            guard inet_pton(AF_INET, text, &value) == 1 else { throw HarnessError("not an IPv4 address: \(text)") }
            return withUnsafeBytes(of: value) { Array($0) }
        }
        self.first = try bytes(first)
        self.then = try bytes(then)
        let listenAddress = try bytes(address)
        socketFD = try namespace.inside {
            let socketFD = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var bound = sockaddr_in()
            bound.sin_family = sa_family_t(AF_INET)
            bound.sin_port = UInt16(53).bigEndian
            withUnsafeMutableBytes(of: &bound.sin_addr) { $0.copyBytes(from: listenAddress) }
            let result = withUnsafePointer(to: &bound) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard socketFD >= 0, result == 0 else {
                if socketFD >= 0 { close(socketFD) }
                throw HarnessError("cannot bind \(address):53")
            }
            return socketFD
        }
        Thread { [self] in serve() }.start()
    }

    /// The `A` queries answered so far.
    public var addressQueries: Int { queries.withLock { $0 } }

    /// Closes the socket.
    public func stop() {
        shutdown(socketFD, Int32(SHUT_RDWR))
        close(socketFD)
    }

    private func serve() {
        var buffer = [UInt8](repeating: 0, count: 1500)
        while true {
            var peer = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let count = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(socketFD, &buffer, buffer.count, 0, $0, &length)
                }
            }
            if count <= 0 { return }
            guard let answer = answer(Array(buffer[0..<count])) else { continue }
            _ = withUnsafePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(socketFD, answer, answer.count, 0, $0, length)
                }
            }
        }
    }

    /// The response to one query: its header and question, and one `A` record for an `A` query.
    private func answer(_ query: [UInt8]) -> [UInt8]? {
        guard query.count > 12 else { return nil }
        var end = 12
        while end < query.count, query[end] != 0 { end += Int(query[end]) + 1 }
        end += 5  // the root label, QTYPE and QCLASS
        guard end <= query.count else { return nil }
        let type = UInt16(query[end - 4]) << 8 | UInt16(query[end - 3])
        var records: [UInt8] = []
        if type == 1 {
            let isFirst = queries.withLock { count in
                count += 1
                return count == 1
            }
            records = [0xC0, 12, 0, 1, 0, 1, 0, 0, 0, 0, 0, 4] + (isFirst ? first : then)
        }
        let header: [UInt8] = [
            query[0], query[1], 0x81, 0x80, 0, 1, 0, records.isEmpty ? 0 : 1, 0, 0, 0, 0,
        ]
        return header + query[12..<end] + records
    }
}
