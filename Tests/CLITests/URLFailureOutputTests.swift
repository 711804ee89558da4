import Foundation
import Testing
import WebImageTestSupport

/// How `fetch`, `get` and `prefetch` report failed URLs: standard output keeps the results;
/// each failure is one `error: URL: reason` line on standard error naming the URL once, then
/// `error: N of M ... failed` when there were several URLs; exit status 1.
@Suite("webimage fetch, get, prefetch: one error line per failed URL", .ownThread) struct URLFailureOutputTests {
    /// A PDF-looking file and an HTML page, served from `/documents/` with their real types.
    static let pdf = Array("%PDF-1.4\n% private body text\n1 0 obj << /Type /Catalog >> endobj\n".utf8)
    static let html = Array("<!DOCTYPE html>\n<html><body>private page</body></html>\n".utf8)

    static func server() throws -> NginxServer {
        try NginxServer(files: [
            "badge.png": try GetTests.sample("badge.png"), "orbit.gif": try GetTests.sample("orbit.gif"),
            "TestImage.pdf": pdf,
            "page.html": html,
        ])
    }

    func run(_ command: String, _ arguments: [String]) async throws -> CommandResult {
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let output = try TemporaryDirectory()
        let extra = command == "fetch" ? ["-o", output.path] : ["--cache-dir", cache.path]
        return try await WebImageProcess.run([command, "--plugin-path", plugins.path] + extra + arguments)
    }

    @Test("get: a 404 among 3 URLs is 2 result lines on stdout, its error line and the count on stderr")
    func getOneOfThreeFails() async throws {
        let server = try Self.server()
        let urls = ["badge.png", "missing.png", "orbit.gif"].map { server.http + "/static/" + $0 }
        let result = try await run("get", urls + ["--sequential"])
        #expect(result.status == 1)
        try #require(result.outputLines.count == 2, "\(result.standardOutput)")
        #expect(result.outputLines[0].hasPrefix("\(urls[0]): 512x512 png from the network in "))
        #expect(result.outputLines[1].hasPrefix("\(urls[2]): "))
        #expect(!result.standardOutput.contains("missing"))
        #expect(
            result.errorLines == [
                "error: \(urls[1]): load failed: bad status: status 404", "error: 1 of 3 images failed",
            ])
    }

    @Test("get, fetch and prefetch with one URL that is missing: one line naming it once, nothing on stdout")
    func singleMissingURL() async throws {
        let server = try Self.server()
        let url = server.http + "/static/missing.png"
        for command in ["get", "fetch", "prefetch"] {
            let result = try await run(command, [url])
            #expect(result.status == 1, "\(command)")
            #expect(
                result.errorLines
                    == ["error: \(url): \(command == "fetch" ? "" : "load failed: ")bad status: status 404"],
                "\(command)")
            // prefetch's summary line only.
            #expect(command == "prefetch" ? result.outputLines.count == 1 : result.standardOutput == "", "\(command)")
            #expect(!result.standardOutput.contains(url), "\(command): \(result.standardOutput)")
        }
    }

    @Test("fetch: a 404 among 3 URLs is its error line and the count; --json still prints every URL's object")
    func fetchOneOfThreeFails() async throws {
        let server = try Self.server()
        let urls = ["badge.png", "missing.png", "orbit.gif"].map { server.http + "/static/" + $0 }
        let plain = try await run("fetch", urls)
        #expect(plain.status == 1)
        #expect(plain.standardOutput == "")
        #expect(plain.errorLines == ["error: \(urls[1]): bad status: status 404", "error: 1 of 3 URLs failed"])
        let json = try await run("fetch", urls + ["--json"])
        #expect(json.outputLines.count == 3)
        #expect(json.errorLines == plain.errorLines)
    }

    @Test("prefetch: names each failed and skipped URL; the summary counts those prefetched; --json lists failures")
    func prefetchNamesFailures() async throws {
        let server = try Self.server()
        let urls = [server.http + "/static/badge.png", "not a url", server.http + "/static/missing.png"]
        let expectedErrors = [
            "error: not a url: invalid URL: not a URL (no scheme)",
            "error: \(urls[2]): load failed: bad status: status 404",
            "error: 2 of 3 images failed",
        ]
        let plain = try await run("prefetch", urls + ["--parallel", "1"])
        #expect(plain.status == 1)
        #expect(plain.errorLines == expectedErrors)
        #expect(plain.outputLines.count == 1)
        #expect(
            plain.outputLines.first?.range(
                of: #"^1 of 3 prefetched, 1 failed, 1 skipped, 0 stores failed, in [0-9]+\.[0-9] ms$"#,
                options: .regularExpression) != nil, "\(plain.standardOutput)")

        let json = try await run("prefetch", urls + ["--json"])
        #expect(json.status == 1)
        #expect(json.errorLines == expectedErrors)
        let summary = try json.json()
        #expect(summary["total"] as? Int == 3 && summary["failed"] as? Int == 1 && summary["skipped"] as? Int == 1)
        let failures = try #require(summary["failures"] as? [[String: String]])
        #expect(
            failures == [
                ["url": "not a url", "error": "invalid URL: not a URL (no scheme)"],
                ["url": urls[2], "error": "load failed: bad status: status 404"],
            ])
    }

    @Test(
        "data that is no image: the URL, what it looks like and the served Content-Type, never its bytes",
        arguments: [
            ("TestImage.pdf", "looks like PDF, \(pdf.count) bytes; served as application/pdf"),
            ("page.html", "looks like HTML, \(html.count) bytes; served as text/html"),
        ])
    func unsupportedDataNamed(name: String, look: String) async throws {
        let server = try Self.server()
        let url = server.http + "/documents/" + name
        let result = try await run("get", [url])
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.errorLines == ["error: \(url): decode failed: not an image the loaded coders decode (\(look))"])
        #expect(!result.standardError.contains("private"))
    }

    @Test("usage errors begin with error: like the rest")
    func usageErrors() async throws {
        let twoURLs = try await run("get", ["-o", "a.png", "data:,a", "data:,b"])
        #expect(twoURLs.status == 64)
        #expect(twoURLs.errorLines.first == "error: -o takes exactly one URL argument; use --output-dir for several")
        let unknown = try await run("prefetch", ["--no-such-flag", "data:,a"])
        #expect(unknown.status == 64)
        #expect(unknown.errorLines.first == "error: Unknown option '--no-such-flag'")
    }
}
