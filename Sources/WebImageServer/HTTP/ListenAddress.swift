import FoundationEssentials
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// Where the server listens: `HOST:PORT` (`[v6]:PORT` for IPv6) taken apart, with port 0
/// turned into a free port before anything starts, so that the source guard can refuse
/// the server's own address (a source pointing back at the server would make it call itself).
struct ListenAddress: Sendable, Equatable {
    var host: String
    var port: Int

    /// `text` taken apart.
    /// - Throws: ``ImageServerConfigurationError`` for a malformed address.
    init(_ text: String) throws(ImageServerConfigurationError) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else {
            throw ImageServerConfigurationError("listen must be HOST:PORT, not '\(text)'")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ImageServerConfigurationError("listen must name a host: '\(text)'") }
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
    }

    /// `HOST:PORT` again, IPv6 hosts in brackets.
    var text: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    /// This address with port 0 replaced by a port free now, and that port held
    /// (``PortReservation``) until the server listens on it.
    ///
    /// The port is taken below the kernel's ephemeral range (`net.ipv4.ip_local_port_range`,
    /// 32768 to 60999 by default) where it can be: a port from that range may be taken as the
    /// local port of any outgoing connection on the machine before the server binds it. It is
    /// one of 32 random ports from 10000 up to that range, the first free one; else the kernel's
    /// pick. The reservation's socket stays bound, so another process looking for a free port
    /// the same way (another `webimage serve` starting at the same moment) finds it taken; it
    /// allows the server's own bind (both sockets reuse the address, and it never listens).
    /// - Throws: ``ImageServerConfigurationError`` when the host is no IP address or cannot be bound.
    func reservingPort() throws(ImageServerConfigurationError) -> PortReservation {
        guard port == 0 else { return PortReservation(address: self, descriptor: nil) }
        let ephemeralStart = Self.ephemeralPortRange()?.lowerBound ?? 32_768
        let candidates = ephemeralStart > 10_100 ? (0..<32).map { _ in Int.random(in: 10_000..<ephemeralStart) } : []
        for candidate in candidates + [0] {
            if let (free, descriptor) = try bound(port: candidate) {
                var reserved = self
                reserved.port = free
                return PortReservation(address: reserved, descriptor: descriptor)
            }
        }
        throw ImageServerConfigurationError("listen: cannot bind \(text)")
    }

    /// The port that binding this host's `port` gives (the kernel's pick for 0) and the socket
    /// bound to it, which then allows other sockets that reuse the address; nil when the port
    /// is taken (bound by any socket, reserved or listening).
    private func bound(port: Int) throws(ImageServerConfigurationError) -> (port: Int, descriptor: Int32)? {
        var storage = sockaddr_storage()
        let isIPv6 = host.contains(":")
        let family = isIPv6 ? AF_INET6 : AF_INET
        let length = isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
        // Both layouts start with the family, then the port; the address is at each layout's own offset.
        storage.ss_family = sa_family_t(family)
        let addressOffset =
            isIPv6
            ? MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)! : MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!
        let parsed = withUnsafeMutableBytes(of: &storage) {
            inet_pton(family, host, $0.baseAddress! + addressOffset) == 1
        }
        guard parsed else { throw ImageServerConfigurationError("listen: '\(host)' is not an IP address") }
        withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port = UInt16(port).bigEndian }
        }
        // Closed on exec: the reservation must not follow a plugin worker started meanwhile.
        let socketFD = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else { throw ImageServerConfigurationError("listen: no socket for \(host)") }
        var boundLength = socklen_t(length)
        // Bound without SO_REUSEADDR first: that fails while any socket holds the port.
        let bound = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(length)) == 0 && getsockname(socketFD, $0, &boundLength) == 0
            }
        }
        var reuse: Int32 = 1
        guard bound, setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size)) == 0
        else {
            close(socketFD)
            return nil
        }
        let boundPort = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
        return (boundPort, socketFD)
    }

    /// The kernel's range of ephemeral ports; nil when it cannot be read.
    static func ephemeralPortRange() -> ClosedRange<Int>? {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        else { return nil }
        let bounds = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] <= bounds[1] else { return nil }
        return bounds[0]...bounds[1]
    }

    /// The networks a source may not reach because they are this server: its address and
    /// port (for a name, every address the name resolves to), or every address on its port
    /// when it listens on all of them (`0.0.0.0`, `::`).
    var ownNetworks: [IPNetwork] {
        let texts: [String]
        switch host {
        case "0.0.0.0", "::": texts = ["0.0.0.0/0:\(port)", "[::]/0:\(port)"]
        default: texts = Self.addresses(of: host).map { $0.contains(":") ? "[\($0)]:\(port)" : "\($0):\(port)" }
        }
        return texts.compactMap { try? IPNetwork($0) }
    }

    /// `host` when it is an IP address, else the addresses the system resolves it to (as the
    /// listener does when it binds), none when it does not resolve.
    private static func addresses(of host: String) -> [String] {
        if (try? IPNetwork(host)) != nil { return [host] }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var entry = list
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let address = info.ai_addr else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    var bytes = $0.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &bytes, &text, socklen_t(text.count))
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    var bytes = $0.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count))
                }
            default: continue
            }
            addresses.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return addresses
    }
}
