import Foundation
import Testing
import WebImageTestSupport

/// The destination guard (`--deny-private`) end to end: `webimage fetch` runs inside a network
/// namespace whose only routes lead to a second namespace of the test's own, which holds a
/// "public" address (198.51.100.1, a documentation range), a private one (10.201.0.1), a CGNAT
/// one (100.64.77.1), a link-local one (169.254.77.1) and a unique local one (fd00:77::1), all
/// served by one recording HTTP server; a second server listens on the client's own loopback.
/// No packet can leave the two namespaces.
@Suite("webimage fetch: the destination guard, in network namespaces") struct DestinationGuardTests {
    /// The two namespaces, their servers and the command that runs `webimage` in the client.
    final class Network {
        let client: NetworkNamespace
        let hosts: NetworkNamespace
        /// The hosts' server, on two ports (a redirect to the second needs a new name lookup).
        let remote: RecordingHTTPServer
        /// The server on the client's loopback, on two ports.
        let local: RecordingHTTPServer
        let plugins: PluginsFolder
        let output: TemporaryDirectory

        init() throws {
            client = try NetworkNamespace()
            hosts = try NetworkNamespace()
            try client.link("c0", to: hosts, as: "h0")
            try client.addAddress("198.51.100.2/24", to: "c0")
            try client.addAddress("fd00:77::2/64", to: "c0")
            for address in ["198.51.100.1/24", "10.201.0.1/32", "100.64.77.1/32", "169.254.77.1/32", "fd00:77::1/64"] {
                try hosts.addAddress(address, to: "h0")
            }
            for prefix in ["10.201.0.0/16", "100.64.77.0/24", "169.254.77.0/24"] {
                try client.addRoute(prefix, via: "c0")
            }
            remote = try RecordingHTTPServer(in: hosts, portCount: 2)
            local = try RecordingHTTPServer(in: client, portCount: 2)
            plugins = try PluginsFolder.make()
            output = try TemporaryDirectory()
        }

        deinit {
            remote.stop()
            local.stop()
        }

        var port: Int { remote.ports[0] }

        /// `http://host:port/path` on the hosts' first port.
        func url(_ host: String, _ path: String = "/image") -> String { "http://\(host):\(port)\(path)" }

        /// A redirect from `host` (default the public host) to `target`.
        func redirect(to target: String, from host: String = "198.51.100.1") -> String {
            url(host, "/redirect?to=" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        }

        /// A name server on the public host, used by the client, answering `first` to the
        /// first lookup and `then` to every later one; stop it when done.
        func nameServer(first: String, then: String) throws -> RebindingNameServer {
            let nameServer = try RebindingNameServer(in: hosts, on: "198.51.100.1", first: first, then: then)
            try client.useNameServer("198.51.100.1")
            return nameServer
        }

        /// A redirect from `rebind.test` on the first port to ``rebindingTarget``, which makes
        /// libcurl look the name up again (its cache is by name and port).
        var rebindingRedirect: String { redirect(to: rebindingTarget, from: "rebind.test") }

        /// Where ``rebindingRedirect`` leads: `rebind.test` on the second port.
        var rebindingTarget: String { "http://rebind.test:\(remote.ports[1])/image" }

        /// `webimage fetch --json arguments...` inside the client namespace; no proxy.
        func fetch(_ arguments: [String]) async throws -> (CommandResult, [[String: Any]]) {
            let command =
                client.execPrefix + [try BuildProducts.executable.path, "fetch", "--plugin-path", plugins.path]
                + ["-o", output.path, "--json"] + arguments
            let noProxy = Dictionary(
                uniqueKeysWithValues: [
                    "http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                ]
                .map { ($0, "") })
            let result = try await WebImageProcess.run(
                Array(command.dropFirst()), environment: noProxy, executable: URL(fileURLWithPath: command[0]))
            let reports = try result.outputLines.map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
            return (result, reports)
        }
    }

    @Test(
        "--deny-private: each refused class, the loopback spellings and a redirect hop are refused with no connection made"
    )
    func refusesPrivateDestinations() async throws {
        let network = try Network()
        let loopback = network.local.ports[0]
        let cases: [(url: String, error: String?)] = [
            (network.url("10.201.0.1"), "10.201.0.1 is a private address"),
            (network.url("100.64.77.1"), "100.64.77.1 is a private (CGNAT) address"),
            (network.url("169.254.77.1"), "169.254.77.1 is a link-local address"),
            (network.url("[fd00:77::1]"), "fd00:77::1 is a unique local address"),
            (network.url("[::ffff:10.201.0.1]"), "::ffff:10.201.0.1 is a private address"),
            ("http://localhost:\(loopback)/image", "127.0.0.1 is a loopback address"),
            ("http://0x7f000001:\(loopback)/image", "127.0.0.1 is a loopback address"),
            ("http://2130706433:\(loopback)/image", "127.0.0.1 is a loopback address"),
            ("http://127.1:\(loopback)/image", "127.0.0.1 is a loopback address"),
            ("http://0.0.0.0:\(loopback)/image", "0.0.0.0 is an unspecified address"),
            (
                network.redirect(to: network.url("10.201.0.1")),
                "10.201.0.1 is a private address (the redirect to \(network.url("10.201.0.1")))"
            ),
            (network.url("198.51.100.1"), nil),
        ]
        let (result, reports) = try await network.fetch(["--deny-private"] + cases.map(\.url))
        #expect(result.status == 1)
        #expect(reports.map { $0["url"] as? String } == cases.map(\.url))
        #expect(reports.map { $0["error"] as? String } == cases.map { $0.error.map { "destination refused: " + $0 } })
        #expect(reports.last?["bytes_written"] as? Int == RecordingHTTPServer.body.count)
        // Only the public host was reached: the allowed URL and the redirect's first hop.
        #expect(network.remote.acceptedAddresses == ["198.51.100.1", "198.51.100.1"])
        #expect(network.local.acceptedAddresses == [])
    }

    @Test("by default the CLI reaches private, unique local and loopback hosts as before")
    func defaultReachIsUnchanged() async throws {
        let network = try Network()
        let urls = [
            network.url("10.201.0.1"), network.url("[fd00:77::1]"), "http://127.1:\(network.local.ports[0])/image",
            network.redirect(to: network.url("169.254.77.1")),
        ]
        let (result, reports) = try await network.fetch(urls)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(reports.map { $0["error"] is NSNull } == [true, true, true, true])
        #expect(
            network.remote.acceptedAddresses.sorted() == ["10.201.0.1", "169.254.77.1", "198.51.100.1", "fd00:77::1"])
        #expect(network.local.acceptedAddresses == ["127.0.0.1"])
    }

    @Test("a name whose answer changes between lookups (public, then private) cannot reach the private address")
    func dnsRebindingIsRefusedAtConnect() async throws {
        let network = try Network()
        let nameServer = try network.nameServer(first: "198.51.100.1", then: "10.201.0.1")
        defer { nameServer.stop() }
        let (result, reports) = try await network.fetch(["--deny-private", network.rebindingRedirect])
        #expect(result.status == 1)
        #expect(
            reports.map { $0["error"] as? String } == [
                "destination refused: 10.201.0.1 is a private address (the redirect to \(network.rebindingTarget))"
            ])
        #expect(nameServer.addressQueries == 2)
        #expect(network.remote.acceptedAddresses == ["198.51.100.1"])
    }
}
