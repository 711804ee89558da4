import Testing
import WebImageCore

@Suite("IPNetwork: ADDRESS[/BITS][:PORT], IPv6 with a port in brackets")
struct IPNetworkTests {
    @Test(
        "each form parses to its bytes, prefix length and port, and prints canonically",
        arguments: [
            ("10.0.0.0/8", [10, 0, 0, 0], 8, nil, "10.0.0.0/8"),
            ("127.0.0.1:8080", [127, 0, 0, 1], 32, 8080, "127.0.0.1:8080"),
            ("192.168.1.0/24:443", [192, 168, 1, 0], 24, 443, "192.168.1.0/24:443"),
            ("::1", [UInt8](repeating: 0, count: 15) + [1], 128, nil, "::1"),
            ("[::1]:8080", [UInt8](repeating: 0, count: 15) + [1], 128, 8080, "[::1]:8080"),
            ("fd00::/8", [0xFD] + [UInt8](repeating: 0, count: 15), 8, nil, "fd00::/8"),
            ("[FD00:0::]/8:443", [0xFD] + [UInt8](repeating: 0, count: 15), 8, 443, "[fd00::]/8:443"),
        ] as [(String, [UInt8], Int, UInt16?, String)])
    func parses(text: String, address: [UInt8], prefixLength: Int, port: UInt16?, canonical: String) throws {
        let network = try IPNetwork(text)
        #expect(network.address == address)
        #expect(network.prefixLength == prefixLength)
        #expect(network.port == port)
        #expect(network.description == canonical)
    }

    @Test(
        "a malformed network is one error naming it and the reason",
        arguments: [
            ("10.0.0.0/33", "the prefix length is not 0...32"),
            ("fd00::/129", "the prefix length is not 0...128"),
            ("10.0.0.0/", "the prefix length is not 0...32"),
            ("127.0.0.1:0", "the port is not 1...65535"),
            ("127.0.0.1:65536", "the port is not 1...65535"),
            ("[::1", "no ']' after the IPv6 address"),
            ("[::1]x:80", "text after ']'"),
            ("example.com", "not an IP address"),
            ("10.0.0", "not an IP address"),
            ("", "not an IP address"),
        ])
    func refuses(text: String, reason: String) {
        #expect(throws: IPNetwork.ParseError(text: text, reason: reason)) { try IPNetwork(text) }
        #expect(
            IPNetwork.ParseError(text: text, reason: reason).description == "invalid network '\(text)': \(reason)")
    }
}
