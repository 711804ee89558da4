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
        #expect(summary["store_failures"] as? Int == 0)
        #expect(summary["ms"] is Double)
        let get = try await WebImageProcess.run(
            ["get", "--plugin-path", plugins.path, "--cache-dir", cache.path, "--json", "--options", "from-cache-only"]
                + urls)
        #expect(get.status == 0)
        #expect(get.outputLines.allSatisfy { $0.contains("\"cache_type\":\"disk\"") })
        #expect(server.requests(matching: "/static/", atLeast: 3).count == 3)
    }

    @Test("a full cache file system: every URL finished, the 5 stores that did not fit counted, one warning")
    func fullFileSystem() async throws {
        let server = try GetTests.server()
        let plugins = try PluginsFolder.make()
        let cache = try MountedFolder.tmpfs(bytes: 256 * 1024)
        let urls = (0..<12).map { server.http + "/static/badge.png?i=\($0)" }
        let result = try await WebImageProcess.run(
            ["prefetch", "--plugin-path", plugins.path, "--cache-dir", cache.path, "--json"] + urls)
        #expect(result.status == 0, "\(result.standardError)")
        let summary = try result.json()
        #expect(summary["total"] as? Int == 12 && summary["finished"] as? Int == 12 && summary["failed"] as? Int == 0)
        // 64 pages of 4 KiB: `.index` takes one, each entry (30,213 bytes, its ETag and the
        // 32-byte footer) eight, so 7 fit.
        #expect(summary["store_failures"] as? Int == 5)
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache.path + "/default")
        #expect(entries.filter { !$0.hasPrefix(".") }.count == 7)
        #expect(entries.filter { $0.hasPrefix(".tmp-") } == [])
        #expect(
            result.standardError
                == "warning: 5 stores to the cache failed, the first: cannot write a cache entry in \(cache.path)/default: "
                + "No space left on device\n")
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

    /// The progress bar's line for `finished` of 3 images.
    static func bar(_ finished: Int, failed: Int = 0) -> String {
        let filled = 30 * finished / 3
        let line = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled) + "] "
        return line + "\(finished)/3 images" + (failed > 0 ? ", \(failed) failed" : "")
    }

    @Test("on a terminal: a progress bar on one line, redrawn with \\r, ending with the final counts")
    func progressBarOnTerminal() async throws {
        let server = try GetTests.server()
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let urls = ["landscape.jpg", "badge.png", "orbit.gif"].map { server.http + "/static/" + $0 }
        let result = try await WebImageProcess.runOnTerminal(
            ["prefetch", "--plugin-path", plugins.path, "--cache-dir", cache.path, "--parallel", "1"] + urls)
        #expect(result.status == 0, "\(result.standardOutput)")
        let text = result.standardOutput
        // Redraws, then the final line and its newline; no summary line after the bar.
        #expect(text.hasPrefix("\r") && text.hasSuffix("\r" + Self.bar(3) + "\r\n"), "\(text.debugDescription)")
        // "\r\n" is one Character: turn it into "\n" before splitting the redraws at "\r".
        let draws = text.replacingOccurrences(of: "\r\n", with: "\n").dropLast().split(separator: "\r")
            .map(String.init)
        #expect(draws.count >= 2, "\(text.debugDescription)")
        #expect(draws.allSatisfy { [Self.bar(1), Self.bar(2), Self.bar(3)].contains($0) }, "\(draws)")
        #expect(server.requests(matching: "/static/", atLeast: 3).count == 3)
    }

    @Test("on a terminal with a failed URL: the bar counts it, then its error line and the count")
    func progressBarWithFailure() async throws {
        let server = try GetTests.server()
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let urls = ["badge.png", "missing.png", "orbit.gif"].map { server.http + "/static/" + $0 }
        let result = try await WebImageProcess.runOnTerminal(
            ["prefetch", "--plugin-path", plugins.path, "--cache-dir", cache.path, "--parallel", "1"] + urls)
        #expect(result.status == 1)
        let lines = result.standardOutput.components(separatedBy: "\r\n")
        try #require(lines.count == 4 && lines[3] == "", "\(result.standardOutput.debugDescription)")
        #expect(lines[0].hasSuffix("\r" + Self.bar(3, failed: 1)), "\(lines[0].debugDescription)")
        #expect(lines[1] == "error: \(urls[1]): load failed: bad status: status 404", "\(lines[1])")
        #expect(lines[2] == "error: 1 of 3 images failed", "\(lines[2])")
    }

    @Test("--json on a terminal, or no terminal: no progress bar")
    func noBarWithJSONOrWithoutTerminal() async throws {
        let server = try GetTests.server()
        let plugins = try PluginsFolder.make()
        let urls = ["landscape.jpg", "badge.png", "orbit.gif"].map { server.http + "/static/" + $0 }
        let caches = [try TemporaryDirectory(), try TemporaryDirectory()]
        let json = try await WebImageProcess.runOnTerminal(
            ["prefetch", "--plugin-path", plugins.path, "--cache-dir", caches[0].path, "--json"] + urls)
        #expect(json.status == 0)
        let lines = json.standardOutput.components(separatedBy: "\r\n")
        #expect(lines.count == 2 && lines[1] == "" && !json.standardOutput.contains("\r["), "\(json.standardOutput)")
        let summary = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        #expect(summary?["total"] as? Int == 3 && summary?["finished"] as? Int == 3 && summary?["failed"] as? Int == 0)

        let plain = try await WebImageProcess.run(
            ["prefetch", "--plugin-path", plugins.path, "--cache-dir", caches[1].path] + urls)
        #expect(plain.status == 0)
        #expect(plain.standardError == "")
        #expect(plain.outputLines.count == 1)
        #expect(
            plain.outputLines.first?.range(
                of: #"^3 of 3 prefetched, 0 failed, 0 skipped, 0 stores failed, in [0-9]+\.[0-9] ms$"#,
                options: .regularExpression)
                != nil, "\(plain.standardOutput)")
    }
}
