import Foundation
import Testing
import WebImageTestSupport

/// The destination guard (`--deny-private`) end to end: `webimage fetch` runs in the client
/// namespace of a ``GuardNetwork``, whose only routes lead to the test's own hosts namespace: a
/// "public" address (198.51.100.1, a documentation range), a private one (10.201.0.1), a CGNAT
/// one (100.64.77.1), a link-local one (169.254.77.1) and a unique local one (fd00:77::1), all
/// served by one recording HTTP server; a second server listens on the client's own loopback.
/// No packet can leave the two namespaces.
@Suite("webimage fetch: the destination guard, in network namespaces", .ownThread) struct DestinationGuardTests {
    /// The two namespaces and their servers, and the command that runs `webimage` in the client.
    final class Network: GuardNetwork {
        let plugins: PluginsFolder
        let output: TemporaryDirectory

        init() throws {
            plugins = try PluginsFolder.make()
            output = try TemporaryDirectory()
            try super.init()
        }

        /// `webimage fetch --json arguments...` inside the client namespace; no proxy.
        func fetch(_ arguments: [String]) async throws -> (CommandResult, [[String: Any]]) {
            let command =
                client.execPrefix + [try BuildProducts.executable.path, "fetch", "--plugin-path", plugins.path]
                + ["-o", output.path, "--json"] + arguments
            let result = try await WebImageProcess.run(
                Array(command.dropFirst()), environment: Self.noProxy, executable: URL(fileURLWithPath: command[0]))
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
