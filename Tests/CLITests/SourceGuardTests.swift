import Foundation
import Testing
import WebImageTestSupport

/// The source guard's lists (`--allow-source`, `--allow-network`, `--deny-address`) end to end,
/// on the network namespaces of ``DestinationGuardTests``: `webimage fetch` in the client
/// namespace, the recording server on the hosts' addresses and on the client's loopback. Every
/// refusal is checked with its exact reason and with the connections each server accepted.
@Suite("webimage fetch: allowed source prefixes, allowed networks and denied addresses", .ownThread)
struct SourceGuardTests {
    typealias Network = DestinationGuardTests.Network

    /// The `error` of a refused URL's report: `destination refused: <reason>`.
    static func refused(_ reason: String) -> String { "destination refused: " + reason }

    /// The reason of a URL outside the prefixes: `<url> is not under an allowed source prefix`.
    static func outside(_ url: String, redirected: Bool = false) -> String {
        refused((redirected ? "the redirect to " : "") + url + " is not under an allowed source prefix")
    }

    /// Runs `fetch arguments... urls...` and checks each URL's `error` (nil: loaded).
    static func expect(
        _ network: Network, _ arguments: [String], _ cases: [(url: String, error: String?)],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let (result, reports) = try await network.fetch(arguments + cases.map(\.url))
        let failed = cases.contains { $0.error != nil }
        #expect(result.status == (failed ? 1 : 0), "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(reports.map { $0["url"] as? String } == cases.map(\.url), sourceLocation: sourceLocation)
        #expect(reports.map { $0["error"] as? String } == cases.map(\.error), sourceLocation: sourceLocation)
    }

    @Test("--allow-source: a source is matched on its parsed scheme, host, port and path, never as a string")
    func prefixesMatchParsedSources() async throws {
        let network = try Network()
        let port = network.port
        let prefixes = [
            "http://198.51.100.1:\(port)/image", "HTTP://198.51.100.1:\(port)/redirect",
            "http://[FD00:77:0::1]:\(port)",
        ]
        let refusedURLs = [
            network.url("198.51.100.1", "/other"),
            network.url("198.51.100.1", "/image/../other"),
            network.url("198.51.100.1", "/image/%2e%2e/other"),
            "http://198.51.100.1:\(port)@10.201.0.1:\(port)/image",
            "http://198.51.100.1.evil.test:\(port)/image",
            "https://198.51.100.1:\(port)/image",
            "http://198.51.100.1:\(network.remote.ports[1])/image",
            "data:text/plain,abc",
        ]
        try await Self.expect(
            network, prefixes.flatMap { ["--allow-source", $0] },
            [
                (network.url("198.51.100.1"), nil), (network.url("198.51.100.1", "/image-2"), nil),
                (network.url("[fd00:77::1]", "/any"), nil),
            ]
                + refusedURLs.map { ($0, Self.outside($0)) })
        #expect(network.remote.acceptedAddresses.sorted() == ["198.51.100.1", "198.51.100.1", "fd00:77::1"])
        #expect(network.local.acceptedAddresses == [])
    }

    @Test("--allow-source: a redirect outside the prefixes is refused before any connection to its target")
    func redirectOutsidePrefixesIsNeverConnected() async throws {
        let network = try Network()
        let loopbackTarget = "http://127.0.0.1:\(network.local.ports[0])/image"
        let privateTarget = network.url("10.201.0.1")
        let otherPort = "http://198.51.100.1:\(network.remote.ports[1])/image"
        try await Self.expect(
            network, ["--allow-source", "http://198.51.100.1:\(network.port)/"],
            [
                (network.redirect(to: loopbackTarget), Self.outside(loopbackTarget, redirected: true)),
                (network.redirect(to: privateTarget), Self.outside(privateTarget, redirected: true)),
                (network.redirect(to: otherPort), Self.outside(otherPort, redirected: true)),
                (network.redirect(to: network.url("198.51.100.1")), nil),
            ])
        // The three refused redirects' first hops, and the allowed redirect's two.
        #expect(network.remote.acceptedAddresses == Array(repeating: "198.51.100.1", count: 5))
        #expect(network.local.acceptedAddresses == [])
    }

    @Test("a redirect to a scheme other than http and https is refused, with or without prefixes")
    func redirectToAnotherSchemeIsRefused() async throws {
        let network = try Network()
        let targets = [
            "file:///etc/passwd", "ftp://127.0.0.1:\(network.local.ports[0])/image",
            "gopher://127.0.0.1:\(network.local.ports[0])/",
        ]
        let cases = targets.map { target in
            (
                network.redirect(to: target),
                Optional(Self.refused("the redirect to \(target) is not an http or https URL"))
            )
        }
        try await Self.expect(network, [], cases)
        try await Self.expect(network, ["--allow-source", "http://198.51.100.1:\(network.port)/"], cases)
        #expect(network.remote.acceptedAddresses == Array(repeating: "198.51.100.1", count: 6))
        #expect(network.local.acceptedAddresses == [])
    }

    @Test("--allow-source with '*': one or more labels of a looked-up name; a refused name is never looked up")
    func wildcardPrefixes() async throws {
        let network = try Network()
        let nameServer = try network.nameServer(first: "198.51.100.1", then: "198.51.100.1")
        defer { nameServer.stop() }
        let port = network.port
        let refusedURLs = [
            "http://images.test:\(port)/image", "http://a.images.test.evil.test:\(port)/image",
            "http://a.images.test:\(network.remote.ports[1])/image", "http://a.images-test:\(port)/image",
        ]
        let elsewhere = "http://elsewhere.test:\(port)/image"
        try await Self.expect(
            network, ["--allow-source", "http://*.images.test:\(port)/"],
            [
                ("http://a.images.test:\(port)/image", nil), ("http://b.c.IMAGES.test:\(port)/image", nil),
                (network.redirect(to: elsewhere, from: "r.images.test"), Self.outside(elsewhere, redirected: true)),
            ] + refusedURLs.map { ($0, Self.outside($0)) })
        // a.images.test, b.c.images.test and r.images.test; not elsewhere.test, the redirect's target.
        #expect(nameServer.addressQueries == 3)
        #expect(network.remote.acceptedAddresses == Array(repeating: "198.51.100.1", count: 3))
    }

    @Test("a redirect to a private host under the prefixes: refused with --deny-private, reached without it")
    func privateRedirectTargets() async throws {
        let network = try Network()
        let target = network.url("10.201.0.1")
        let prefixes = ["http://198.51.100.1:\(network.port)/", "http://10.201.0.1:\(network.port)/"].flatMap {
            ["--allow-source", $0]
        }
        try await Self.expect(
            network, prefixes + ["--deny-private"],
            [
                (
                    network.redirect(to: target),
                    Self.refused("10.201.0.1 is a private address (the redirect to \(target))")
                )
            ])
        #expect(network.remote.acceptedAddresses == ["198.51.100.1"])
        try await Self.expect(network, prefixes, [(network.redirect(to: target), nil)])
        #expect(network.remote.acceptedAddresses == ["198.51.100.1", "198.51.100.1", "10.201.0.1"])
    }

    @Test("--allow-network admits its network (and port) under --deny-private, not another private host")
    func allowedNetworks() async throws {
        let network = try Network()
        let otherPort = network.remote.ports[1]
        try await Self.expect(
            network,
            ["--deny-private", "--allow-network", "10.201.0.0/16", "--allow-network", "100.64.77.1:\(network.port)"],
            [
                (network.url("10.201.0.1"), nil),
                (network.redirect(to: network.url("10.201.0.1")), nil),
                (network.url("100.64.77.1"), nil),
                (
                    "http://100.64.77.1:\(otherPort)/image",
                    Self.refused("100.64.77.1 is a private (CGNAT) address")
                ),
                (network.url("169.254.77.1"), Self.refused("169.254.77.1 is a link-local address")),
                (network.url("[fd00:77::1]"), Self.refused("fd00:77::1 is a unique local address")),
            ])
        #expect(
            network.remote.acceptedAddresses.sorted() == [
                "10.201.0.1", "10.201.0.1", "100.64.77.1", "198.51.100.1",
            ])
    }

    @Test(
        "--deny-address refuses one loopback server's address and port in every spelling, also where private addresses are allowed"
    )
    func deniedAddresses() async throws {
        let network = try Network()
        let denied = network.local.ports[0]
        let allowed = network.local.ports[1]
        let deniedURL = "http://127.0.0.1:\(denied)/image"
        let cases: [(url: String, error: String?)] = [
            (deniedURL, Self.refused("127.0.0.1 port \(denied) is a denied address")),
            ("http://0.0.0.0:\(denied)/image", Self.refused("0.0.0.0 port \(denied) is a denied address")),
            (
                "http://[::ffff:127.0.0.1]:\(denied)/image",
                Self.refused("::ffff:127.0.0.1 port \(denied) is a denied address")
            ),
            (
                "http://127.0.0.1:\(allowed)/redirect?to="
                    + deniedURL.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
                Self.refused("127.0.0.1 port \(denied) is a denied address (the redirect to \(deniedURL))")
            ),
            ("http://127.0.0.1:\(allowed)/image", nil),
        ]
        try await Self.expect(network, ["--deny-address", "127.0.0.1:\(denied)"], cases)
        #expect(network.local.acceptedAddresses == ["127.0.0.1", "127.0.0.1"])
        try await Self.expect(
            network,
            ["--deny-private", "--allow-network", "127.0.0.0/8", "--deny-address", "127.0.0.1:\(denied)"], cases)
        #expect(network.local.acceptedAddresses == Array(repeating: "127.0.0.1", count: 4))
        #expect(network.local.requestCount(for: "/image") == 2)
    }

    @Test("a name the prefixes allow whose answer changes between lookups still cannot reach the private address")
    func rebindingUnderAllowedPrefix() async throws {
        let network = try Network()
        let nameServer = try network.nameServer(first: "198.51.100.1", then: "10.201.0.1")
        defer { nameServer.stop() }
        let prefixes = ["http://rebind.test:\(network.port)/", "http://rebind.test:\(network.remote.ports[1])/"]
        try await Self.expect(
            network, ["--deny-private"] + prefixes.flatMap { ["--allow-source", $0] },
            [
                (
                    network.rebindingRedirect,
                    Self.refused("10.201.0.1 is a private address (the redirect to \(network.rebindingTarget))")
                )
            ])
        #expect(nameServer.addressQueries == 2)
        #expect(network.remote.acceptedAddresses == ["198.51.100.1"])
    }

    @Test("a malformed prefix fails each URL naming it; a malformed network is a usage error")
    func malformedLists() async throws {
        let network = try Network()
        let url = network.url("198.51.100.1")
        try await Self.expect(
            network, ["--allow-source", "ftp://198.51.100.1/"],
            [(url, "invalid URL: invalid allowed source prefix 'ftp://198.51.100.1/': not an http:// or https:// URL")])
        let (result, _) = try await network.fetch(["--deny-address", "10.0.0.0/33", url])
        #expect(result.status == 64)
        #expect(result.standardError.contains("invalid network '10.0.0.0/33': the prefix length is not 0...32"))
        #expect(network.remote.acceptedAddresses == [])
    }
}
