import Foundation
import Testing
import WebImageTestSupport

/// `webimage serve`'s source guard on real addresses: the server, signed with
/// ``ImageServerTests``' key, runs in the client namespace of a ``GuardNetwork`` and is asked
/// by curl run there too; its sources are the recording servers of that network, on private,
/// CGNAT, link-local (169.254.169.254 included), unique local and fe80:: addresses of the
/// test's own, on the client's loopback, and behind a DNS stub whose answer changes between
/// lookups. Every host serves the same 61×43 JPEG; every request asks for it fit into 30×30 as
/// PNG (30×21). A refusal is checked with its exact body line and with the connections each
/// recording server accepted: none on a refused address.
@Suite("webimage serve: the source guard, on hosts in network namespaces")
struct ImageServerSourceGuardTests {
    /// The network, every host serving the test JPEG, and servers started in its client.
    final class Hosts: GuardNetwork {
        let caches: TemporaryDirectory

        init() throws {
            caches = try TemporaryDirectory()
            try super.init(body: try Fixture.bytes("jpeg/baseline.jpg"))
        }

        /// `webimage serve` with the test key, `arguments` and a cache folder of its own, in
        /// the client namespace, listening on `listen`.
        func server(_ arguments: [String], listen: String = "127.0.0.1:0") throws -> ImageServerProcess {
            let signing = ["--key", ImageServerTests.key, "--salt", ImageServerTests.salt]
            return try ImageServerProcess(
                signing + ["--cache-dir", caches.file(UUID().uuidString)] + arguments,
                environment: Self.noProxy, in: client, listen: listen)
        }
    }

    /// The signed path of `source` (in URL-safe base64) fit into 30×30 as PNG.
    static func path(_ source: String) throws -> String {
        let encoded = Data(source.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return try ImageServerTests.signed("/rs:fit:30:30/\(encoded).png")
    }

    /// `GET` of `source` through `server`, by curl in the server's namespace.
    static func get(_ source: String, from server: ImageServerProcess) throws -> HTTPExchange {
        try HTTPExchange.send(server.baseURL + path(source), in: server.namespace, within: .seconds(60))
    }

    /// Expects `source` through `server` to be 403 with the body `source refused: <reason>`.
    static func expectRefused(
        _ source: String, _ reason: String, by server: ImageServerProcess,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let answer = try get(source, from: server)
        #expect(answer.status == 403, "\(source)", sourceLocation: sourceLocation)
        #expect(answer.text == "source refused: \(reason)\n", "\(source)", sourceLocation: sourceLocation)
        #expect(answer.headers["cache-control"] == "public, max-age=10", sourceLocation: sourceLocation)
    }

    /// Expects `source` through `server` to be 200: the test JPEG as a 30×21 PNG.
    static func expectServed(
        _ source: String, by server: ImageServerProcess, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let answer = try get(source, from: server)
        #expect(answer.status == 200, "\(source): \(answer.text.prefix(200))", sourceLocation: sourceLocation)
        guard answer.status == 200 else { return }
        #expect(answer.headers["content-type"] == "image/png", sourceLocation: sourceLocation)
        #expect(answer.headers["content-length"] == String(answer.body.count), sourceLocation: sourceLocation)
        let (width, height, format, frames) = try ImageServerTests.probe(answer.body, server: server)
        #expect(width == 30 && height == 21 && format == "png" && frames == 1, sourceLocation: sourceLocation)
    }

    /// The sources on every refused kind of address, each with the reason it is refused and the
    /// address the recording server sees when it is reached.
    static func refusedSources(_ hosts: Hosts) -> [(source: String, reason: String, address: String)] {
        [
            (hosts.url("10.201.0.1"), "10.201.0.1 is a private address", "10.201.0.1"),
            (hosts.url("172.16.77.1"), "172.16.77.1 is a private address", "172.16.77.1"),
            (hosts.url("192.168.77.1"), "192.168.77.1 is a private address", "192.168.77.1"),
            (hosts.url("100.64.77.1"), "100.64.77.1 is a private (CGNAT) address", "100.64.77.1"),
            (hosts.url("169.254.169.254"), "169.254.169.254 is a link-local address", "169.254.169.254"),
            (hosts.url("[fd00:77::1]"), "fd00:77::1 is a unique local address", "fd00:77::1"),
            (hosts.url("[fe80::77:1%25c0]"), "fe80::77:1 is a link-local address", "fe80::77:1"),
            (hosts.url("[::ffff:192.168.77.1]"), "::ffff:192.168.77.1 is a private address", "192.168.77.1"),
            ("http://127.0.0.1:\(hosts.local.ports[0])/image", "127.0.0.1 is a loopback address", "127.0.0.1"),
        ]
    }

    @Test("a source on each refused kind of address is 403 with no connection; allowed with --allow-private-sources")
    func refusedAddressesAndTheFlag() async throws {
        try await onOwnThread {
            let hosts = try Hosts()
            let cases = Self.refusedSources(hosts)
            let guarded = try hosts.server([])
            for item in cases { try Self.expectRefused(item.source, item.reason, by: guarded) }
            // The public host is reached: the refusals are the guard's, not an unreachable network.
            try Self.expectServed(hosts.url("198.51.100.1"), by: guarded)
            #expect(hosts.remote.acceptedAddresses == ["198.51.100.1"])
            #expect(hosts.local.acceptedAddresses == [])

            let open = try hosts.server(["--allow-private-sources"])
            for item in cases { try Self.expectServed(item.source, by: open) }
            let reached = cases.map(\.address).filter { $0 != "127.0.0.1" }
            #expect(hosts.remote.acceptedAddresses.sorted() == (["198.51.100.1"] + reached).sorted())
            #expect(hosts.local.acceptedAddresses == ["127.0.0.1"])
        }
    }

    @Test("a redirect from an allowed host to a refused address is 403; the refused host sees no connection")
    func redirectsToRefusedAddresses() async throws {
        try await onOwnThread {
            let hosts = try Hosts()
            let cases = Self.refusedSources(hosts)
            let server = try hosts.server([])
            for item in cases {
                try Self.expectRefused(
                    hosts.redirect(to: item.source), "\(item.reason) (the redirect to \(item.source))", by: server)
            }
            try Self.expectServed(hosts.redirect(to: hosts.url("198.51.100.1", "/image-2")), by: server)
            // Each redirect's first hop, and the allowed redirect's target.
            #expect(hosts.remote.acceptedAddresses == Array(repeating: "198.51.100.1", count: cases.count + 2))
            #expect(hosts.local.acceptedAddresses == [])
        }
    }

    @Test("a name whose answer changes (public, then private) cannot reach the private address on a redirect")
    func rebindingOnARedirect() async throws {
        try await Self.rebinding { hosts, nameServer, server in
            try Self.expectRefused(
                hosts.rebindingRedirect, "10.201.0.1 is a private address (the redirect to \(hosts.rebindingTarget))",
                by: server)
            #expect(nameServer.addressQueries == 2)
            #expect(hosts.remote.acceptedAddresses == ["198.51.100.1"])
        }
    }

    @Test("the address checked is the address connected to: one lookup per name, a later private answer refused")
    func rebindingBetweenRequests() async throws {
        try await Self.rebinding { hosts, nameServer, server in
            try Self.expectServed("http://rebind.test:\(hosts.port)/image", by: server)
            #expect(nameServer.addressQueries == 1)
            try Self.expectRefused(
                "http://again.test:\(hosts.port)/image", "10.201.0.1 is a private address", by: server)
            #expect(nameServer.addressQueries == 2)
            #expect(hosts.remote.acceptedAddresses == ["198.51.100.1"])
        }
    }

    /// Runs `body` on a thread of its own with a network whose name server answers 198.51.100.1
    /// to the first lookup and 10.201.0.1 to every later one, and a default server using it.
    static func rebinding(
        _ body: @escaping @Sendable (Hosts, RebindingNameServer, ImageServerProcess) throws -> Void
    ) async throws {
        try await onOwnThread {
            let hosts = try Hosts()
            let nameServer = try hosts.nameServer(first: "198.51.100.1", then: "10.201.0.1")
            defer { nameServer.stop() }
            try body(hosts, nameServer, try hosts.server([]))
        }
    }

    @Test("the server's own port is refused on each of its addresses, also with --allow-private-sources")
    func ownListenAddress() async throws {
        try await onOwnThread {
            let hosts = try Hosts()
            let server = try hosts.server(["--allow-private-sources"], listen: "0.0.0.0:0")
            let port = server.port
            let own = "http://198.51.100.2:\(port)/health"
            let cases: [(source: String, reason: String)] = [
                ("http://127.0.0.1:\(port)/health", "127.0.0.1 port \(port) is a denied address"),
                (own, "198.51.100.2 port \(port) is a denied address"),
                ("http://[::ffff:198.51.100.2]:\(port)/health", "::ffff:198.51.100.2 port \(port) is a denied address"),
                ("http://[fd00:77::2]:\(port)/health", "fd00:77::2 port \(port) is a denied address"),
                ("http://0.0.0.0:\(port)/health", "0.0.0.0 port \(port) is a denied address"),
                (hosts.redirect(to: own), "198.51.100.2 port \(port) is a denied address (the redirect to \(own))"),
            ]
            for item in cases { try Self.expectRefused(item.source, item.reason, by: server) }
            let lines = server.accessLines(waitingFor: cases.count) { $0.contains(" 403 ") }
            #expect(lines.filter { $0.contains(" 403 ") }.count == cases.count)
            #expect(lines.filter { $0.contains("GET /health") } == [])
            // Another port on the same machine is allowed with the flag.
            try Self.expectServed("http://127.0.0.1:\(hosts.local.ports[0])/image", by: server)
            #expect(hosts.local.acceptedAddresses == ["127.0.0.1"])
            #expect(hosts.remote.acceptedAddresses == ["198.51.100.1"])
        }
    }

    @Test("a server listening on a name refuses sources on the address the name stands for")
    func ownListenName() async throws {
        try await onOwnThread {
            let hosts = try Hosts()
            try hosts.client.useHostsFile(["serve.test": "198.51.100.2"])
            // A fixed port: nothing else listens on it in the new client namespace.
            let server = try hosts.server(["--allow-private-sources"], listen: "serve.test:8080")
            #expect(server.baseURL == "http://198.51.100.2:8080")
            for source in ["http://198.51.100.2:8080/health", "http://serve.test:8080/health"] {
                try Self.expectRefused(source, "198.51.100.2 port 8080 is a denied address", by: server)
            }
            let lines = server.accessLines(waitingFor: 2) { $0.contains(" 403 ") }
            #expect(lines.filter { $0.contains(" 403 ") }.count == 2)
            #expect(lines.filter { $0.contains("GET /health") } == [])
        }
    }

    @Test("--allow-source prefixes hold on every redirect target, before any connection to it")
    func prefixesOnRedirectTargets() async throws {
        try await onOwnThread {
            let hosts = try Hosts()
            let prefix = "http://198.51.100.1:\(hosts.port)/"
            let server = try hosts.server(["--allow-private-sources", "--allow-source", prefix])
            let targets = [
                hosts.url("10.201.0.1"), hosts.url("169.254.169.254"), "http://127.0.0.1:\(hosts.local.ports[0])/image",
                "http://198.51.100.1:\(hosts.remote.ports[1])/image",
            ]
            for target in targets {
                try Self.expectRefused(
                    hosts.redirect(to: target), "the redirect to \(target) is not under an allowed source prefix",
                    by: server)
            }
            try Self.expectRefused(
                hosts.url("10.201.0.1"), "\(hosts.url("10.201.0.1")) is not under an allowed source prefix",
                by: server)
            try Self.expectServed(hosts.redirect(to: hosts.url("198.51.100.1")), by: server)
            #expect(hosts.remote.acceptedAddresses == Array(repeating: "198.51.100.1", count: targets.count + 2))
            #expect(hosts.local.acceptedAddresses == [])

            // A private host under a prefix is still refused by the address guard.
            let privatePrefix = "http://10.201.0.1:\(hosts.port)/"
            let both = try hosts.server(["--allow-source", prefix, "--allow-source", privatePrefix])
            let target = hosts.url("10.201.0.1")
            try Self.expectRefused(
                hosts.redirect(to: target), "10.201.0.1 is a private address (the redirect to \(target))", by: both)
            #expect(hosts.remote.acceptedAddresses == Array(repeating: "198.51.100.1", count: targets.count + 3))
        }
    }
}
