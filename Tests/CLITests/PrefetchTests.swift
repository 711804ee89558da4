import Foundation
import Testing
import WebImageTestSupport

/// `webimage prefetch` against a real nginx.
@Suite("webimage prefetch") struct PrefetchTests {
    @Test("prefetches into the disk cache; the JSON summary counts finished, skipped and failed")
    func prefetchThenGet() async throws {
        let server = try GetTests.server()
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let urls = ["landscape.jpg", "badge.png", "orbit.gif"].map { server.http + "/static/" + $0 }
        let result = try await WebImageProcess.run(
            ["prefetch", "--plugin-path", plugins.path, "--cache-dir", cache.path, "--json", "--parallel", "2"] + urls)
        #expect(result.status == 0, "\(result.standardError)")
        let summary = try result.json()
        #expect(summary["total"] as? Int == 3 && summary["finished"] as? Int == 3)
        #expect(summary["skipped"] as? Int == 0 && summary["failed"] as? Int == 0)
        #expect(summary["ms"] is Double)
        let get = try await WebImageProcess.run(
            ["get", "--plugin-path", plugins.path, "--cache-dir", cache.path, "--json", "--options", "from-cache-only"]
                + urls)
        #expect(get.status == 0)
        #expect(get.outputLines.allSatisfy { $0.contains("\"cache_type\":\"disk\"") })
        #expect(server.requests(matching: "/static/").count == 3)
    }

    @Test("a list file with a bad URL and a 404: skipped 1, failed 1, exit status 1")
    func fromFile() async throws {
        let server = try GetTests.server()
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let list = try TemporaryDirectory()
        let file = try list.write(
            "urls.txt",
            [server.http + "/static/badge.png", "not a url", server.http + "/static/missing.png"].joined(
                separator: "\n"))
        let result = try await WebImageProcess.run(
            ["prefetch", "--plugin-path", plugins.path, "--cache-dir", cache.path, "--json", "--from", file])
        #expect(result.status == 1)
        let summary =
            try JSONSerialization.jsonObject(with: Data((result.outputLines.first ?? "").utf8)) as? [String: Any]
        #expect(summary?["total"] as? Int == 3 && summary?["finished"] as? Int == 3)
        #expect(summary?["skipped"] as? Int == 1 && summary?["failed"] as? Int == 1)
    }

    @Test("--from - reads the URL list from standard input")
    func urlsFromStandardInput() async throws {
        let server = try GetTests.server()
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let urls = [server.http + "/static/badge.png", server.http + "/static/badge.png?second"]
        let result = try await WebImageProcess.run(
            ["prefetch", "--plugin-path", plugins.path, "--cache-dir", cache.path, "--json", "--from", "-"],
            standardInput: urls.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.standardError)")
        let summary =
            try JSONSerialization.jsonObject(with: Data((result.outputLines.first ?? "").utf8)) as? [String: Any]
        #expect(summary?["total"] as? Int == 2 && summary?["finished"] as? Int == 2)
        #expect(summary?["skipped"] as? Int == 0 && summary?["failed"] as? Int == 0)
        #expect(server.requests(matching: "/static/badge.png", atLeast: 2).count == 2)
    }
}
