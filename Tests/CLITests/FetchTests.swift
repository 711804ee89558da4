import Foundation
import Testing
import WebImageTestSupport

@Suite("webimage fetch", .ownThread) struct FetchTests {
    /// Runs `webimage fetch` with every bundled plugin and `arguments`.
    func fetch(_ arguments: [String]) async throws -> CommandResult {
        let plugins = try PluginsFolder.make()
        return try await WebImageProcess.run(["fetch", "--plugin-path", plugins.path] + arguments)
    }

    func objects(_ result: CommandResult) throws -> [[String: Any]] {
        try result.outputLines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func writesEachBodyOnceAndReportsJSON() async throws {
        let input = try TemporaryDirectory()
        let output = try TemporaryDirectory()
        try input.write("a.png", "first image")
        let url = URL(fileURLWithPath: input.file("a.png")).absoluteString
        let result = try await fetch([
            url, url, "data:image/png;base64,AAEC", "-o", output.path, "--json", "--allow-file",
        ])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let reports = try objects(result)
        #expect(reports.count == 2)
        #expect(reports[0]["url"] as? String == url)
        #expect(reports[0]["status"] as? Int == 200)
        #expect(reports[0]["bytes_downloaded"] as? Int == 11)
        #expect(reports[0]["bytes_written"] as? Int == 11)
        #expect(reports[0]["file"] as? String == output.file("a.png"))
        #expect(reports[0]["error"] is NSNull)
        #expect(
            Set(reports[0].keys) == [
                "url", "status", "http_version", "bytes_downloaded", "bytes_written", "content_type", "etag", "file",
                "ms", "error",
            ])
        #expect(reports[1]["content_type"] as? String == "image/png")
        #expect(reports[1]["bytes_downloaded"] as? Int == 3)
        #expect(reports[1]["bytes_written"] as? Int == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == ["a.png", "index"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: output.file("a.png"))) == Data("first image".utf8))
    }

    @Test("bodies do not pile up in memory while the disk is behind: 80 bodies of 2 MB peak as 2 do")
    func bodiesDoNotPileUp() async throws {
        let body = (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let server = try NginxServer(files: ["big.bin": body])
        let plugins = try PluginsFolder.make()
        /// The peak resident bytes of `fetch` for `count` distinct URLs of the 2 MB file.
        func peak(_ count: Int) async throws -> Int {
            let output = try TemporaryDirectory()
            let urls = (0..<count).map { server.http + "/static/big.bin?i=\($0)" }
            let run = try await MeasuredProcess.run(
                try BuildProducts.executable.path, ["fetch", "--plugin-path", plugins.path, "-o", output.path] + urls)
            #expect(run.exitStatus == 0, "\(run.standardError)")
            #expect(try output.names(in: ".").filter { $0.hasPrefix("big") }.count == count)
            return run.ownPeakResidentBytes
        }
        let two = try await peak(2)
        let eighty = try await peak(80)
        // Held until written, or by their finished downloads, the 78 more bodies would add 156 MB;
        // at most 2 × 6 (--parallel) are handed to the downloader at once.
        #expect(eighty - two < 40 << 20, "2 URLs peaked at \(two) bytes, 80 at \(eighty)")
    }

    @Test("names from the raw last segment: no escape, control character or name over 200 bytes; nothing replaced")
    func hostileNamesStayInTheFolder() async throws {
        let server = try NginxServer(files: ["badge.png": [UInt8](repeating: 7, count: 100)])
        let output = try HostileOutputFolder()
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["fetch", "--plugin-path", plugins.path, "-o", output.path] + output.urls(server))
        // nginx refuses a NUL in a path (400): that URL fails and writes nothing.
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardOutput == "", "\(result.standardOutput)")
        let names = [
            ".._2f.._2fescape.png", "line_0abreak.png", "soh_01byte.png", "noextension",
            String(repeating: "x", count: 200), "badge-2.png", "photo.JPG", "_2e_2e", "badge-3.png",
        ]
        try output.expectOnly(names)
        for name in names { #expect(try output.bytes(name).count == 100, "\(name)") }
    }

    @Test("URLs with one file name get -2, -3...: past names taken by earlier URLs and files already there")
    func repeatedNamesGetSuffixes() async throws {
        let input = try TemporaryDirectory()
        let output = try TemporaryDirectory()
        try input.write("photo", "bytes")
        try input.write("photo-2", "named like a suffix")
        try output.write("photo-3", "already there")
        let photo = URL(fileURLWithPath: input.file("photo")).absoluteString
        let suffixed = URL(fileURLWithPath: input.file("photo-2")).absoluteString
        let urls = [photo + "?id=1", suffixed, photo + "?id=2", photo + "?id=3", photo + "?id=4"]
        let result = try await fetch(urls + ["-o", output.path, "--json", "--allow-file"])
        #expect(result.status == 0, "\(result.standardError)")
        let files = try objects(result).map {
            ($0["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent }
        }
        #expect(files == ["photo", "photo-2", "photo-4", "photo-5", "photo-6"])
        let kept = try String(contentsOfFile: output.file("photo-3"), encoding: .utf8)
        #expect(kept == "already there")
    }

    @Test("on a terminal: a progress bar of files, bytes, rate and time, redrawn with \\r; none with --json")
    func progressBarOnTerminal() async throws {
        let plugins = try PluginsFolder.make()
        let input = try TemporaryDirectory()
        try input.write("a.png", "first image")
        try input.write("b.png", "second image")
        let urls = ["a.png", "b.png"].map { URL(fileURLWithPath: input.file($0)).absoluteString }
        let output = try TemporaryDirectory()
        let result = try await WebImageProcess.runOnTerminal(
            ["fetch", "--plugin-path", plugins.path, "-o", output.path, "--allow-file"] + urls)
        #expect(result.status == 0, "\(result.standardOutput)")
        let bar = #"\r\[#{30}\] 2/2 files, 23 B, [0-9.]+ [kMG]?B/s in [0-9]+:[0-9]{2} *\r\n"#
        #expect(result.standardOutput.range(of: bar, options: .regularExpression) != nil, "\(result.standardOutput)")
        let jsonOutput = try TemporaryDirectory()
        let json = try await WebImageProcess.runOnTerminal(
            ["fetch", "--plugin-path", plugins.path, "-o", jsonOutput.path, "--json", "--allow-file"] + urls)
        #expect(json.status == 0, "\(json.standardOutput)")
        #expect(!json.standardOutput.contains("\r[") && !json.standardOutput.contains("files,"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: jsonOutput.path).sorted() == ["a.png", "b.png"])
    }

    @Test func httpFromNginxOnceEachAndA404LeavesNoFile() async throws {
        let image = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 11) }
        let server = try NginxServer(files: ["photo.jpg": image])
        let output = try TemporaryDirectory()
        let photo = server.http + "/static/photo.jpg"
        let missing = server.http + "/static/missing.jpg"
        let result = try await fetch([photo, missing, photo, "-o", output.path, "--json", "--parallel", "2"])
        #expect(result.status == 1)
        #expect(
            result.errorLines == [
                "error: \(missing): bad status: status 404", "error: 1 of 2 URLs failed",
            ])
        let reports = try objects(result)
        #expect(reports.count == 2)
        #expect(reports[0]["status"] as? Int == 200)
        #expect(reports[0]["http_version"] as? String == "1.1")
        #expect(reports[0]["bytes_downloaded"] as? Int == 50_000)
        #expect(reports[0]["bytes_written"] as? Int == 50_000)
        #expect(reports[0]["content_type"] as? String == "image/jpeg")
        #expect((reports[0]["etag"] as? String)?.hasPrefix("\"") == true)
        #expect(reports[1]["status"] as? Int == 404)
        #expect(reports[1]["file"] is NSNull)
        #expect(reports[1]["bytes_downloaded"] as? Int == 0 && reports[1]["bytes_written"] as? Int == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["photo.jpg"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: output.file("photo.jpg"))) == Data(image))
        let requests = server.requests(matching: "/static/", atLeast: 2).map { line in
            let fields = line.split(separator: "|", omittingEmptySubsequences: false)
            return "\(fields.first ?? "") \(fields.last ?? "")"
        }
        #expect(requests.sorted() == ["/static/missing.jpg 404", "/static/photo.jpg 200"])
    }

    @Test func aFailedURLLeavesNoFileAndExitsWithOne() async throws {
        let output = try TemporaryDirectory()
        let result = try await fetch([
            "file:///nonexistent/webimage/missing.png", "data:,ok", "-o", output.path, "--json", "--allow-file",
        ])
        #expect(result.status == 1)
        #expect(
            result.errorLines == [
                "error: file:///nonexistent/webimage/missing.png: network error: Couldn't open file /nonexistent/webimage/missing.png (curl error 37)",
                "error: 1 of 2 URLs failed",
            ])
        let reports = try objects(result)
        #expect(reports[0]["file"] is NSNull)
        #expect(
            reports[0]["error"] as? String
                == "network error: Couldn't open file /nonexistent/webimage/missing.png (curl error 37)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["index"])
    }

    @Test func urlsComeFromAListFile() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("list.txt", "# images\ndata:,one\n\ndata:,one\n")
        let result = try await fetch(["--from", folder.file("list.txt"), "-o", folder.path, "--json"])
        #expect(result.status == 0)
        #expect(try objects(result).map { $0["url"] as? String } == ["data:,one"])
    }

    /// Four 40 KB files from nginx's /slow/ (20 KB at once, then 20 KB/s), all started at
    /// once (6 downloads at once, of which one host runs 4): the transfers overlap for about a
    /// second, so each has its own connection unless limited.
    @Test(arguments: [1, 2, 4]) func connectionsPerHostAreLimited(limit: Int) async throws {
        let names = ["c1.bin", "c2.bin", "c3.bin", "c4.bin"]
        let server = try NginxServer(
            files: Dictionary(uniqueKeysWithValues: names.map { ($0, [UInt8](repeating: 7, count: 40_000)) }))
        let output = try TemporaryDirectory()
        let result = try await fetch(
            names.map { server.http + "/slow/" + $0 } + [
                "-o", output.path, "--parallel", "6", "--http1", "--max-host-connections", String(limit),
            ])
        #expect(result.status == 0)
        #expect(server.connections(servingRequestsTo: "/slow/", requests: 4).count == limit)
    }

    /// libcurl takes the proxy from `http_proxy`: nginx, given an absolute URL, serves it from
    /// its own files, so a host that does not resolve (.invalid) is fetched through it.
    @Test func theProxyComesFromTheEnvironment() async throws {
        let server = try NginxServer()
        let output = try TemporaryDirectory()
        let url = "http://webimage-proxy.invalid/static/small.bin"
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["fetch", "--plugin-path", plugins.path, url, "-o", output.path, "--json"],
            environment: ["http_proxy": server.http, "no_proxy": ""])
        #expect(result.status == 0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: output.file("small.bin"))) == Data(server.files["small.bin"]!))
        #expect(server.requests(matching: "/static/small.bin", atLeast: 1).count == 1)
        let direct = try await fetch([url, "-o", output.path, "--json"])
        #expect(direct.status == 1)
    }

    @Test("an empty body is an empty file, a 3 MB one whole")
    func emptyAndLargeBodies() async throws {
        let large = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        let server = try NginxServer(files: ["empty.bin": [], "three-mb.bin": large])
        let output = try TemporaryDirectory()
        let result = try await fetch(
            [server.http + "/static/empty.bin", server.http + "/static/three-mb.bin", "-o", output.path])
        #expect(result.status == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == ["empty.bin", "three-mb.bin"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: output.file("empty.bin"))).isEmpty)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output.file("three-mb.bin")))) == large)
    }

    @Test("--max-time ends a 2-bytes-a-second drip with one error line and no file")
    func maxTimeEndsADrip() async throws {
        let server = try NginxServer()
        let output = try TemporaryDirectory()
        let url = server.http + "/slow/slow.bin?rate=2"
        let result = try await fetch([url, "-o", output.path, "--max-time", "1"])
        #expect(result.status == 1)
        #expect(
            result.errorLines == [
                "error: \(url): timed out: transfer took longer than 1 s (--max-time)"
            ])
        // Nor any temporary file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == [])
        let negative = try await fetch([url, "--max-time=-1"])
        #expect(negative.status == 64)
        #expect(negative.errorLines.first == "error: --max-time must be from 0 to 86400 seconds")
    }

    @Test func badArgumentsAreOneErrorLine() async throws {
        let result = try await fetch(["data:,x", "--http1", "--http2"])
        #expect(result.status == 64)
        let folder = try TemporaryDirectory()
        let file = try folder.write("file", "not a folder")
        let notAFolder = try await fetch(["data:,x", "-o", file])
        #expect(notAFolder.status == 1)
        #expect(notAFolder.errorLines == ["error: \(file) is not a folder"])
        let zero = try await fetch(["data:,x", "--max-host-connections", "0"])
        #expect(zero.status == 64)
    }
}
