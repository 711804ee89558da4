import Foundation
import Testing
import WebImageTestSupport

/// `webimage get` against a real nginx serving the sample images, with every bundled plugin.
@Suite("webimage get", .ownThread) struct GetTests {
    static let samples = BuildProducts.repository.appendingPathComponent("Examples/sample-images")

    static func sample(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: samples.appendingPathComponent(name)))
    }

    static func server() throws -> NginxServer {
        try NginxServer(files: [
            "landscape.jpg": try sample("landscape.jpg"), "badge.png": try sample("badge.png"),
            "orbit.gif": try sample("orbit.gif"),
        ])
    }

    func get(_ arguments: [String], plugins: PluginsFolder) async throws -> CommandResult {
        try await WebImageProcess.run(["get", "--plugin-path", plugins.path] + arguments)
    }

    func objects(_ result: CommandResult) throws -> [[String: Any]] {
        try result.outputLines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("several URLs at once: downloaded the first time, from the disk cache in the next process")
    func networkThenDisk() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let urls = ["landscape.jpg", "badge.png", "orbit.gif"].map { server.http + "/static/" + $0 }
        let first = try await get(urls + ["--cache-dir", cache.path, "--json"], plugins: plugins)
        #expect(first.status == 0, "\(first.standardError)")
        let reports = try objects(first)
        #expect(reports.map { $0["url"] as? String } == urls)
        #expect(reports.map { $0["cache_type"] as? String } == ["none", "none", "none"])
        #expect(reports.map { $0["key"] as? String } == urls)
        #expect(reports.map { $0["width"] as? Int } == [1200, 512, 320])
        #expect(reports.map { $0["height"] as? Int } == [800, 512, 200])
        #expect(reports.map { $0["format"] as? String } == ["jpeg", "png", "gif"])
        #expect(reports.map { $0["frames"] as? Int } == [1, 1, 8])
        #expect(reports[0]["bytes_downloaded"] as? Int == (try Self.sample("landscape.jpg")).count)
        #expect(reports.map { $0["bytes_written"] as? Int } == [0, 0, 0])
        #expect(reports.allSatisfy { $0["error"] is NSNull && $0["ms"] is Double })
        #expect(
            Set(reports[0].keys)
                == [
                    "url", "key", "cache_type", "width", "height", "format", "frames", "bytes_downloaded",
                    "bytes_written", "ms", "error",
                ])

        let second = try await get(urls + ["--cache-dir", cache.path, "--json", "--sequential"], plugins: plugins)
        #expect(second.status == 0)
        #expect(try objects(second).map { $0["cache_type"] as? String } == ["disk", "disk", "disk"])
        #expect(server.requests(matching: "/static/", atLeast: 3).count == 3)
    }

    @Test("--output-dir: each image under its URL's name; repeated names get -2, -3... before the extension")
    func outputDirectoryNames() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let output = try TemporaryDirectory()
        let badge = server.http + "/static/badge.png"
        let urls = [badge + "?v=1", server.http + "/static/landscape.jpg", badge + "?v=2", badge + "?v=3"]
        let result = try await get(
            urls + ["--output-dir", output.path, "--cache-dir", try TemporaryDirectory().path], plugins: plugins)
        #expect(result.status == 0, "\(result.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(files == ["badge-2.png", "badge-3.png", "badge.png", "landscape.jpg"])
        for name in ["badge.png", "badge-2.png", "badge-3.png"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: output.file(name))) == Data(try Self.sample("badge.png")))
        }
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: output.file("landscape.jpg")))
                == Data(try Self.sample("landscape.jpg")))
    }

    @Test(
        "--output-dir: names from the raw last segment stay in the folder, end in the format's extension, replace nothing"
    )
    func outputDirectoryNamesFromHostileURLs() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let output = try HostileOutputFolder()
        let urls = output.urls(server)
        let result = try await get(
            urls + ["--output-dir", output.path, "--cache-dir", try TemporaryDirectory().path, "--sequential"],
            plugins: plugins)
        // nginx refuses a NUL in a path (400): that URL fails and writes nothing.
        #expect(result.status == 1)
        #expect(
            result.errorLines == [
                "error: \(urls[3]): load failed: bad status: status 400", "error: 1 of 10 images failed",
            ],
            "\(result.standardError)")
        let names = [
            ".._2f.._2fescape.png", "line_0abreak.png", "soh_01byte.png", "noextension.png",
            String(repeating: "x", count: 200) + ".png", "badge-2.png", "photo.JPG", "_2e_2e.png", "badge-3.png",
        ]
        try output.expectOnly(names)
        #expect(
            result.outputLines.filter { $0.contains(" -> ") }.map { $0.components(separatedBy: " -> ").last }
                == names.map { output.path + "/" + $0 })
        let badge = try Self.sample("badge.png")
        for name in names where name != "photo.JPG" { #expect(try output.bytes(name) == badge, "\(name)") }
        #expect(try output.bytes("photo.JPG").starts(with: [0xFF, 0xD8, 0xFF]))
    }

    @Test("a read-only cache folder: the hit is served, the miss loaded and not stored, with one warning")
    func readOnlyCache() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let badge = server.http + "/static/badge.png"
        let landscape = server.http + "/static/landscape.jpg"
        let first = try await get([badge, "--cache-dir", cache.path], plugins: plugins)
        #expect(first.status == 0, "\(first.standardError)")
        let readOnly = try MountedFolder.readOnlyView(of: cache.path)
        for _ in 0..<2 {
            let result = try await get(
                [badge, landscape, "--cache-dir", readOnly.path, "--json", "--sequential"], plugins: plugins)
            #expect(result.status == 0, "\(result.standardError)")
            let reports = try objects(result)
            #expect(reports.map { $0["cache_type"] as? String } == ["disk", "none"])
            #expect(reports.map { $0["width"] as? Int } == [512, 1200])
            #expect(
                result.standardError
                    == "warning: 1 stores to the cache failed, the first: cannot create a file in \(readOnly.path)/default: "
                    + "Read-only file system\n")
        }
        #expect(server.requests(matching: "/static/badge.png", atLeast: 1).count == 1)
        #expect(server.requests(matching: "/static/landscape.jpg", atLeast: 2).count == 2)
    }

    @Test("--from: the arguments, then the file's URLs in order, a repeated one loaded twice (one download)")
    func urlsFromAFile() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let folder = try TemporaryDirectory()
        let badge = server.http + "/static/badge.png"
        let landscape = server.http + "/static/landscape.jpg"
        let list = folder.file("urls.txt")
        try "# sample images\n\n  \(landscape)  \n\(badge)\n".write(toFile: list, atomically: true, encoding: .utf8)
        let result = try await get(
            [badge, "--from", list, "--cache-dir", try TemporaryDirectory().path, "--json", "--sequential"],
            plugins: plugins)
        #expect(result.status == 0, "\(result.standardError)")
        let reports = try objects(result)
        #expect(reports.map { $0["url"] as? String } == [badge, landscape, badge])
        #expect(reports.map { $0["cache_type"] as? String } == ["none", "none", "memory"])
        #expect(server.requests(matching: "/static/badge.png", atLeast: 1).count == 1)

        let single = try await get([badge, "--from", list, "-o", folder.file("one.png")], plugins: plugins)
        #expect(single.status != 0 && single.standardError.contains("-o takes exactly one URL argument"))
        let missing = try await get(["--from", folder.file("missing.txt")], plugins: plugins)
        #expect(missing.status != 0 && missing.standardError.contains("missing.txt"))
    }

    @Test("images are not kept until every URL finished: 40 decoded photos of 3.8 MB peak as 2 do")
    func imagesNotKeptUntilTheEnd() throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        /// The peak resident bytes of `get` for `count` distinct URLs of the 1200x800 photo,
        /// loaded one after another and stored nowhere.
        func peak(_ count: Int) throws -> Int {
            let urls = (0..<count).map { server.http + "/static/landscape.jpg?i=\($0)" }
            let run = try MeasuredProcess.run(
                try BuildProducts.executable.path,
                ["get"] + urls + [
                    "--sequential", "--store-cache-type", "none", "--cache-dir", try TemporaryDirectory().path,
                    "--json", "--plugin-path", plugins.path,
                ], timeLimit: .seconds(120))
            #expect(run.exitStatus == 0, "\(run.standardError)")
            #expect(run.standardOutput.split(separator: "\n").count == count)
            return run.ownPeakResidentBytes
        }
        let two = try peak(2)
        let forty = try peak(40)
        // Kept, the 38 more images would add 146 MB.
        #expect(forty - two < 40 << 20, "2 URLs peaked at \(two) bytes, 40 at \(forty)")
    }

    @Test(
        "the flipped TestImage.png and the URL TestImage-Flip(h).png each keep their image across runs, in either order",
        arguments: [true, false])
    func transformedKeyNoURLSpells(flippedFirst: Bool) async throws {
        let server = try NginxServer(files: [
            "TestImage.png": try Self.sample("badge.png"), "TestImage-Flip(h).png": try Self.sample("landscape.jpg"),
        ])
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let image = server.http + "/static/TestImage.png"
        let lookalike = server.http + "/static/TestImage-Flip(h).png"
        let runs = [[image, "--transform", "flip:h"], [lookalike]]
        for run in 0..<2 {
            for arguments in flippedFirst ? runs : runs.reversed() {
                let result = try await get(arguments + ["--cache-dir", cache.path, "--json"], plugins: plugins)
                #expect(result.status == 0, "\(result.standardError)")
                let report = try #require(try objects(result).first)
                let flipped = arguments.count > 1
                #expect(report["key"] as? String == (flipped ? image + " Flip(h)" : lookalike))
                #expect(report["cache_type"] as? String == (run == 0 ? "none" : "disk"))
                #expect(report["width"] as? Int == (flipped ? 512 : 1200))
                #expect(report["format"] as? String == (flipped ? "png" : "jpeg"))
            }
        }
        #expect(server.requests(matching: "/static/TestImage", atLeast: 2).count == 2)
    }

    @Test("thumbnail and transform: the key names both, the file is written in the extension's format")
    func thumbnailTransformOutput() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let output = try TemporaryDirectory()
        let url = server.http + "/static/landscape.jpg"
        let result = try await get(
            [
                url, "--thumbnail", "300x300", "--transform", "flip:h", "--cache-dir", cache.path, "--json", "-o",
                output.file("thumb.png"),
            ], plugins: plugins)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(try objects(result).first)
        #expect(report["width"] as? Int == 300 && report["height"] as? Int == 200)
        #expect(report["key"] as? String == server.http + "/static/landscape.jpg Thumbnail(300x300,1) Flip(h)")
        let written = try Data(contentsOf: URL(fileURLWithPath: output.file("thumb.png")))
        #expect(Array(written.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        #expect(report["bytes_written"] as? Int == written.count)
        #expect(report["format"] as? String == "png")
        let noAspect = try await get(
            [url, "--thumbnail", "100x100", "--no-aspect", "--cache-dir", cache.path, "--json"], plugins: plugins)
        let square = try #require(try objects(noAspect).first)
        #expect(square["width"] as? Int == 100 && square["height"] as? Int == 100)
        #expect(square["cache_type"] as? String == "disk")
        #expect(server.requests(matching: "/static/landscape.jpg", atLeast: 1).count == 1)
    }

    @Test("refresh-cached: the process waits for the revalidation (a 304 in nginx's log) before exiting")
    func refreshWaitsForRevalidation() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let url = server.http + "/static/badge.png"
        _ = try await get([url, "--cache-dir", cache.path], plugins: plugins)
        let refreshed = try await get(
            [url, "--cache-dir", cache.path, "--options", "refresh-cached", "--json"], plugins: plugins)
        #expect(refreshed.status == 0)
        #expect(try objects(refreshed).first?["cache_type"] as? String == "disk")
        let log = server.requests(matching: "/static/badge.png", atLeast: 2)
        #expect(log.count == 2 && log.last?.hasSuffix("|304") == true)
    }

    @Test("a failed URL: exit status 1, its error in the JSON, the others still loaded")
    func failure() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let good = server.http + "/static/badge.png"
        let missing = server.http + "/static/missing.png"
        let result = try await get([good, missing, "--cache-dir", cache.path, "--json"], plugins: plugins)
        #expect(result.status == 1)
        let reports = try objects(result)
        #expect(reports[0]["error"] is NSNull && reports[0]["width"] as? Int == 512)
        #expect(reports[1]["error"] as? String == "load failed: bad status: status 404")
        #expect(
            result.errorLines == [
                "error: \(missing): load failed: bad status: status 404", "error: 1 of 2 images failed",
            ])
        let bad = try await get([good, "--options", "refresh-cached,sometimes"], plugins: plugins)
        #expect(bad.status == 1 && bad.standardError.contains("unknown option 'sometimes'"))
    }

    @Test("--max-time ends a drip in get and prefetch: one error line each")
    func maxTimeEndsADrip() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let url = server.http + "/slow/slow.bin?rate=2"
        let result = try await get([url, "--cache-dir", cache.path, "--max-time", "1"], plugins: plugins)
        #expect(result.status == 1)
        let line = "error: \(url): load failed: timed out: transfer took longer than 1 s (--max-time)"
        #expect(result.errorLines == [line])
        let prefetch = try await WebImageProcess.run(
            ["prefetch", "--plugin-path", plugins.path, "--cache-dir", cache.path, "--json", "--max-time", "1", url])
        #expect(prefetch.status == 1)
        #expect(try prefetch.json()["failed"] as? Int == 1)
        #expect(prefetch.errorLines == [line])
    }

    @Test("cache types: store in memory only leaves the disk empty; query none downloads again")
    func cacheTypes() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let url = server.http + "/static/orbit.gif"
        _ = try await get([url, "--cache-dir", cache.path, "--store-cache-type", "memory"], plugins: plugins)
        let again = try await get([url, "--cache-dir", cache.path, "--json"], plugins: plugins)
        #expect(try objects(again).first?["cache_type"] as? String == "none")
        let fresh = try await get(
            [url, "--cache-dir", cache.path, "--json", "--query-cache-type", "none"], plugins: plugins)
        #expect(try objects(fresh).first?["cache_type"] as? String == "none")
        #expect(server.requests(matching: "/static/orbit.gif", atLeast: 3).count == 3)
        let invalid = try await get([url, "--store-cache-type", "sometimes"], plugins: plugins)
        #expect(invalid.status == 1 && invalid.standardError.contains("expected none, memory, disk or all"))
    }
}
