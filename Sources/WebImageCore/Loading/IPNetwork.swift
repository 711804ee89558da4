#if canImport(Glibc)
    import Glibc
#endif

/// An IP network and one port or all, for ``DestinationPolicy/deniedAddresses`` and
/// ``DestinationPolicy/allowedNetworks``, written `ADDRESS[/BITS][:PORT]`: `10.0.0.0/8`,
/// `127.0.0.1:8080`, `192.168.1.0/24:443`, `fd00::/8`, `::1`; an IPv6 address with a port in
/// brackets, `[::1]:8080`, `[fd00::]/8:443`. Without `/BITS` the network is the one address;
/// without `:PORT` it covers every port. The curl plugin matches an address connected to in
/// IPv4-mapped IPv6 form (`::ffff:127.0.0.1`) as IPv4, and the unspecified addresses (`0.0.0.0`,
/// `::`), which reach the machine itself, as loopback (`127.0.0.1`, `::1`).
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    /// The address's bytes in network order: 4 for IPv4, 16 for IPv6.
    public let address: [UInt8]
    /// How many leading bits of ``address`` the network fixes: 0...32 for IPv4, 0...128 for IPv6.
    public let prefixLength: Int
    /// The TCP port, or nil for every port.
    public let port: UInt16?

    /// Why a text is not an ``IPNetwork``.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text given.
        public let text: String
        /// What is wrong with it ("the port is not 1...65535").
        public let reason: String
        public init(text: String, reason: String) {
            self.text = text
            self.reason = reason
        }
        public var description: String { "invalid network '\(URLText.abbreviated(text))': \(reason)" }
    }

    /// Parses `ADDRESS[/BITS][:PORT]` (see the type's description).
    public init(_ text: String) throws(ParseError) {
        func failure(_ reason: String) -> ParseError { ParseError(text: text, reason: reason) }
        var network = Substring(text)
        var portText: Substring?
        if network.hasPrefix("[") {
            guard let close = network.firstIndex(of: "]") else { throw failure("no ']' after the IPv6 address") }
            let after = network[network.index(after: close)...]
            var lengthText = Substring("")
            if let colon = after.firstIndex(of: ":") {
                portText = after[after.index(after: colon)...]
                lengthText = after[..<colon]
            } else {
                lengthText = after
            }
            guard lengthText.isEmpty || lengthText.hasPrefix("/") else { throw failure("text after ']'") }
            network = network[network.index(after: network.startIndex)..<close] + lengthText
        } else if network.filter({ $0 == ":" }).count == 1, let colon = network.firstIndex(of: ":") {
            portText = network[network.index(after: colon)...]
            network = network[..<colon]
        }
        let parts = network.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let parsed = Self.addressBytes(String(parts[0])) else { throw failure("not an IP address") }
        address = parsed
        let most = parsed.count * 8
        if parts.count == 2 {
            guard parts[1].allSatisfy(\.isWholeNumber), let length = Int(parts[1]), (0...most).contains(length) else {
                throw failure("the prefix length is not 0...\(most)")
            }
            prefixLength = length
        } else {
            prefixLength = most
        }
        if let portText {
            guard let value = UInt16(portText), value > 0 else { throw failure("the port is not 1...65535") }
            port = value
        } else {
            port = nil
        }
    }

    /// The bytes of an IPv4 or IPv6 address in its usual text form, or nil.
    private static func addressBytes(_ text: String) -> [UInt8]? {
        var ipv4 = in_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 { return withUnsafeBytes(of: ipv4) { Array($0) } }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, text, &ipv6) == 1 { return withUnsafeBytes(of: ipv6) { Array($0) } }
        return nil
    }

    /// The canonical text: `10.0.0.0/8`, `127.0.0.1:8080`, `[::1]:8080`, `fd00::/8`.
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        address.withUnsafeBytes {
            _ = inet_ntop(address.count == 4 ? AF_INET : AF_INET6, $0.baseAddress, &text, socklen_t(text.count))
        }
        let addressText = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let bits = prefixLength != address.count * 8 ? "/\(prefixLength)" : ""
        guard let port else { return addressText + bits }
        return address.count == 16 ? "[\(addressText)]\(bits):\(port)" : "\(addressText)\(bits):\(port)"
    }
}
