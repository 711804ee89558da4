import Foundation
import Testing
import WebImageTestSupport

/// The loader options `fetch`, `get` and `prefetch` share (`--header`, `--user`, `--insecure`,
/// `--http1`, `--retries`, `--timeout`, `--max-host-connections`), seen by servers the tests start.
@Suite("fetch, get and prefetch: the loader options", .ownThread) struct LoaderOptionsCommandTests {
    static let commands = ["fetch", "get", "prefetch"]

    /// Runs `command` with every bundled plugin into a new output or cache folder.
    func run(_ command: String, _ arguments: [String]) async throws -> CommandResult {
        let plugins = try PluginsFolder.make()
        let folder = try TemporaryDirectory()
        let destination = command == "fetch" ? ["-o", folder.path] : ["--cache-dir", folder.path]
        return try await WebImageProcess.run([command, "--plugin-path", plugins.path] + destination + arguments)
    }

    static func badge() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: GetTests.samples.appendingPathComponent("badge.png")))
    }

    @Test(
        "--header, --user, --insecure and --http1 reach nginx over TLS: the header on each request, Basic credentials after the 401, HTTP/1.1 or HTTP/2",
        arguments: commands)
    func headersCredentialsAndHTTPVersion(command: String) async throws {
        let server = try NginxServer()
        try server.folder.write("www/auth/badge.png", try Self.badge())
        let url = server.https + "/auth/badge.png"
        let flags = ["--header", "X-WebImage: loader options", "--user", "\(NginxServer.user):\(NginxServer.password)"]
        let http1 = try await run(command, [url, "--insecure", "--http1"] + flags)
        #expect(http1.status == 0, "\(http1.standardError)")
        let http2 = try await run(command, [url + "?h2", "--insecure"] + flags)
        #expect(http2.status == 0, "\(http2.standardError)")
        let basic = "Basic " + Data("\(NginxServer.user):\(NginxServer.password)".utf8).base64EncodedString()
        #expect(
            server.requestHeads(matching: "/auth/badge.png|", atLeast: 2) == [
                "/auth/badge.png|HTTP/1.1|loader options|-|401", "/auth/badge.png|HTTP/1.1|loader options|\(basic)|200",
            ])
        #expect(
            server.requestHeads(matching: "/auth/badge.png?h2|", atLeast: 2) == [
                "/auth/badge.png?h2|HTTP/2.0|loader options|-|401",
                "/auth/badge.png?h2|HTTP/2.0|loader options|\(basic)|200",
            ])
        let verified = try await run(command, [url + "?verified"] + flags)
        #expect(verified.status == 1)
        #expect(server.requestHeads(matching: "/auth/badge.png?verified", atLeast: 0) == [])
    }

    @Test(
        "--retries N against a server that answers 503 twice: N + 1 requests at most, a success from the third",
        arguments: commands)
    func retriesTransientFailures(command: String) async throws {
        let server = try RecordingHTTPServer(in: nil, body: try Self.badge())
        let base = "http://127.0.0.1:\(server.ports[0])"
        let none = try await run(command, [base + "/unavailable-first/2/none.png"])
        #expect(none.status == 1)
        let one = try await run(command, [base + "/unavailable-first/2/one.png", "--retries", "1"])
        #expect(one.status == 1)
        let two = try await run(command, [base + "/unavailable-first/2/two.png", "--retries", "2"])
        #expect(two.status == 0, "\(two.standardError)")
        let five = try await run(command, [base + "/unavailable-first/2/five.png", "--retries", "5"])
        #expect(five.status == 0, "\(five.standardError)")
        #expect(
            ["none", "one", "two", "five"].map { server.requestCount(for: "/unavailable-first/2/\($0).png") } == [
                1, 2, 3, 3,
            ])
        let negative = try await run(command, [base + "/x.png", "--retries=-1"])
        #expect(negative.status == 64)
        #expect(negative.errorLines.first == "error: --retries must not be negative")
    }

    @Test("--timeout 1 ends a 2-bytes-a-second drip: the low-speed limit's error line")
    func timeoutEndsADrip() async throws {
        let server = try NginxServer()
        let url = server.http + "/slow/slow.bin?rate=2"
        let fetch = try await run("fetch", [url, "--timeout", "1"])
        #expect(fetch.errorLines == ["error: \(url): timed out: slower than 1024 B/s for 1 s"])
        let get = try await run("get", [url, "--timeout", "1"])
        #expect(get.errorLines == ["error: \(url): load failed: timed out: slower than 1024 B/s for 1 s"])
        let prefetch = try await run("prefetch", [url, "--timeout", "1", "--json"])
        #expect(prefetch.status == 1)
        #expect(try prefetch.json()["failed"] as? Int == 1)
        #expect(prefetch.errorLines == ["error: \(url): load failed: timed out: slower than 1024 B/s for 1 s"])
        #expect(server.requests(matching: "/slow/slow.bin", atLeast: 3).count == 3)
        let zero = try await run("get", [url, "--timeout", "0"])
        #expect(zero.status == 64)
        #expect(zero.errorLines.first == "error: --timeout must be between 0 and 86400 seconds")
    }

    /// Four URLs of one 30 KB image from nginx's /slow/ at 10 KB/s, all started at once: each
    /// transfer takes about 3 seconds, so they overlap, each on a connection of its own unless
    /// limited.
    @Test(
        "--max-host-connections 1: four overlapping downloads share one connection (four without it)",
        arguments: ["get", "prefetch"])
    func connectionsPerHost(command: String) async throws {
        let server = try NginxServer(files: ["badge.png": try Self.badge()])
        let urls = (1...4).map { server.http + "/slow/badge.png?rate=10000&i=\($0)" }
        let parallel = command == "prefetch" ? ["--parallel", "4"] : []
        let limited = try await run(command, urls + parallel + ["--http1", "--max-host-connections", "1"])
        #expect(limited.status == 0, "\(limited.standardError)")
        #expect(server.connections(servingRequestsTo: "/slow/badge.png?rate=10000&i=", requests: 4).count == 1)
        let free = urls.map { $0.replacingOccurrences(of: "&i=", with: "&free=") }
        let unlimited = try await run(command, free + parallel + ["--http1"])
        #expect(unlimited.status == 0, "\(unlimited.standardError)")
        #expect(server.connections(servingRequestsTo: "/slow/badge.png?rate=10000&free=", requests: 4).count == 4)
    }

    @Test("a bad --header or --user is one usage error line in get and prefetch", arguments: ["get", "prefetch"])
    func badValues(command: String) async throws {
        let header = try await run(command, ["http://127.0.0.1:9/x.png", "--header", "no colon"])
        #expect(header.status == 64)
        #expect(header.errorLines.first == "error: --header 'no colon' is not 'Name: value'")
        let user = try await run(command, ["http://127.0.0.1:9/x.png", "--user", "alice"])
        #expect(user.status == 64)
        #expect(user.errorLines.first == "error: --user must be user:password")
        let both = try await run(command, ["http://127.0.0.1:9/x.png", "--http1", "--http2"])
        #expect(both.status == 64)
        #expect(both.errorLines.first == "error: --http1 and --http2 exclude each other")
    }
}
