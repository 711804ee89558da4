import Foundation
import Testing
import WebImageTestSupport

/// The files `webimage get` writes (`-o`, `--output-dir`) and what `--json` says of them:
/// animations keep every frame, the format is checked before anything is downloaded, the
/// folder is created, and the byte counts say what was downloaded and what was written.
@Suite("webimage get: output files", .ownThread)
struct GetOutputTests {
    static func server() throws -> NginxServer {
        try NginxServer(files: [
            "anim.gif": try Fixture.bytes("gif/anim.gif"), "anim.apng": try Fixture.bytes("apng/anim.apng"),
            "orbit.gif": try GetTests.sample("orbit.gif"), "badge.png": try GetTests.sample("badge.png"),
        ])
    }

    func run(_ arguments: [String], plugins: PluginsFolder) async throws -> CommandResult {
        try await WebImageProcess.run(arguments + ["--plugin-path", plugins.path])
    }

    /// The JSON object of each line of standard output.
    func reports(_ result: CommandResult) throws -> [[String: Any]] {
        try GetTests().objects(result)
    }

    /// What `webimage info --json` reads from `file`, after checking that its last frame decodes.
    func written(_ file: String, plugins: PluginsFolder) async throws -> [String: Any] {
        let info = try await run(["info", file, "--json"], plugins: plugins)
        #expect(info.status == 0, "\(info.standardError)")
        let json = try info.json()
        let frames = try #require(json["frames"] as? Int)
        let last = try await run(
            ["convert", file, file + ".last.png", "--frame", "\(frames - 1)"], plugins: plugins)
        #expect(last.status == 0, "\(last.standardError)")
        return json
    }

    @Test("an animation re-encoded to WebP keeps its 4 frames, durations and loop count; --json describes the file")
    func animationToWebP() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let output = try TemporaryDirectory()
        let result = try await run(
            [
                "get", server.http + "/static/anim.gif", "-o", output.file("d.webp"), "--json", "--cache-dir",
                try TemporaryDirectory().path,
            ], plugins: plugins)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(try reports(result).first)
        #expect(report["format"] as? String == "webp")
        #expect(report["frames"] as? Int == 4)
        #expect(report["width"] as? Int == 8 && report["height"] as? Int == 6)
        let file = try await written(output.file("d.webp"), plugins: plugins)
        #expect(file["format"] as? String == "webp")
        #expect(file["frames"] as? Int == 4)
        #expect(file["loop_count"] as? Int == 3)
        #expect(file["frame_durations_ms"] as? [Int] == [50, 100, 100, 200])
        #expect(file["width"] as? Int == 8 && file["height"] as? Int == 6)
        #expect(report["bytes_written"] as? Int == (try output.bytes("d.webp")).count)
    }

    @Test(
        "orbit.gif (8 frames) to --output-dir with --thumbnail keeps every frame (transformed with transform-animated-image) from the network, memory and disk",
        arguments: [
            [], ["--options", "transform-animated-image"],
            ["--options", "transform-animated-image", "--transform", "rotate:90:fit"],
        ])
    func thumbnailOfAnAnimation(options: [String]) async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let output = try TemporaryDirectory()
        let cache = try TemporaryDirectory()
        let url = server.http + "/static/orbit.gif"
        let arguments =
            ["get", url, url, "--thumbnail", "64x64", "--output-dir", output.path, "--cache-dir", cache.path]
            + options + ["--json", "--sequential"]
        // orbit.gif: 320x200, 8 frames of 80 ms, looping forever; turned a quarter with rotate:90.
        let (width, height) = options.contains("--transform") ? (40, 64) : (64, 40)
        let first = try await run(arguments, plugins: plugins)
        #expect(first.status == 0, "\(first.standardError)")
        let second = try await run(arguments, plugins: plugins)
        #expect(second.status == 0, "\(second.standardError)")
        let all = try reports(first) + reports(second)
        #expect(all.map { $0["cache_type"] as? String } == ["none", "memory", "disk", "memory"])
        #expect(all.map { $0["frames"] as? Int } == [8, 8, 8, 8])
        #expect(all.map { $0["width"] as? Int } == [width, width, width, width])
        #expect(all.map { $0["height"] as? Int } == [height, height, height, height])
        #expect(all.map { $0["format"] as? String } == ["gif", "gif", "gif", "gif"])
        let names = ["orbit.gif", "orbit-2.gif", "orbit-3.gif", "orbit-4.gif"]
        #expect(try output.names(in: ".") == names.sorted())
        for name in names {
            let file = try await written(output.file(name), plugins: plugins)
            #expect(file["format"] as? String == "gif", "\(name)")
            #expect(file["frames"] as? Int == 8, "\(name)")
            #expect(file["width"] as? Int == width && file["height"] as? Int == height, "\(name)")
            #expect(file["loop_count"] as? Int == 0, "\(name)")
            #expect(file["frame_durations_ms"] as? [Int] == Array(repeating: 80, count: 8), "\(name)")
        }
        #expect(server.requests(matching: "/static/orbit.gif", atLeast: 1).count == 1)
    }

    @Test(".apng names the PNG coder: get --output-dir writes the APNG, convert x.apng y.apng keeps its frames")
    func apngExtension() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let output = try TemporaryDirectory()
        let result = try await run(
            [
                "get", server.http + "/static/anim.apng", "--thumbnail", "6x5", "--output-dir", output.path,
                "--cache-dir", try TemporaryDirectory().path,
            ], plugins: plugins)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["anim.apng"])
        let file = try await written(output.file("anim.apng"), plugins: plugins)
        #expect(file["format"] as? String == "png")
        #expect(file["frames"] as? Int == 3)
        #expect(file["loop_count"] as? Int == 2)
        #expect(file["frame_durations_ms"] as? [Int] == [40, 100, 250])
        #expect(file["width"] as? Int == 6 && file["height"] as? Int == 5)

        let converted = output.file("copy.apng")
        let convert = try await run(["convert", Fixture.path("apng/anim.apng"), converted], plugins: plugins)
        #expect(convert.status == 0, "\(convert.standardError)")
        let copy = try await written(converted, plugins: plugins)
        #expect(copy["format"] as? String == "png")
        #expect(copy["frames"] as? Int == 3)
        #expect(copy["loop_count"] as? Int == 2)
        #expect(copy["width"] as? Int == 12 && copy["height"] as? Int == 10)
    }

    @Test(".heics names the HEIC coder")
    func heicsExtension() async throws {
        let plugins = try PluginsFolder.make()
        let output = try TemporaryDirectory()
        let result = try await run(
            ["convert", Fixture.path("png/rgba8.png"), output.file("still.heics"), "--json"], plugins: plugins)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try result.json()["format"] as? String == "heic")
        let file = try await run(["info", output.file("still.heics"), "--json"], plugins: plugins).json()
        #expect(file["format"] as? String == "heic")
    }

    @Test("an output format no coder writes fails at once with one error line; nothing is requested")
    func unwritableFormatBeforeDownloading() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let output = try TemporaryDirectory()
        let result = try await run(
            [
                "get", server.http + "/static/badge.png", "-o", output.file("o.bmp"), "--cache-dir",
                try TemporaryDirectory().path,
            ], plugins: plugins)
        #expect(result.status == 1)
        #expect(
            result.standardError == "error: unsupported output extension '.bmp': no coder handles the format 'bmp'\n")
        #expect(result.standardOutput == "")
        #expect(server.requests(matching: "/static/", atLeast: 0).count == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == [])
    }

    @Test("get --output-dir and fetch -o create the folder and its parents")
    func outputFolderIsCreated() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let root = try TemporaryDirectory()
        let url = server.http + "/static/badge.png"
        let get = try await run(
            ["get", url, "--output-dir", root.file("get/a/b"), "--cache-dir", try TemporaryDirectory().path],
            plugins: plugins)
        #expect(get.status == 0, "\(get.standardError)")
        #expect(get.outputLines.last?.hasSuffix(" -> \(root.path)/get/a/b/badge.png") == true)
        let fetch = try await run(["fetch", url, "-o", root.file("fetch/c")], plugins: plugins)
        #expect(fetch.status == 0, "\(fetch.standardError)")
        #expect(try root.names(in: "get/a/b") == ["badge.png"])
        #expect(try root.names(in: "fetch/c") == ["badge.png"])
        let badge = try GetTests.sample("badge.png")
        #expect(try root.bytes("get/a/b/badge.png") == badge && root.bytes("fetch/c/badge.png") == badge)
    }

    @Test("a regular file in the folder's way is one error line, before anything is requested")
    func folderThatCannotBeCreated() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let root = try TemporaryDirectory()
        let file = try root.write("file", "in the way")
        let url = server.http + "/static/badge.png"
        let get = try await run(
            ["get", url, "--output-dir", file + "/sub", "--cache-dir", try TemporaryDirectory().path],
            plugins: plugins)
        #expect(get.status == 1)
        #expect(get.standardError == "error: cannot create the folder \(file)/sub: \(file)/sub: Not a directory\n")
        let fetch = try await run(["fetch", url, "-o", file + "/sub/deeper"], plugins: plugins)
        #expect(fetch.status == 1)
        #expect(
            fetch.standardError == "error: cannot create the folder \(file)/sub/deeper: \(file)/sub: Not a directory\n")
        #expect(server.requests(matching: "/static/", atLeast: 0).count == 0)
        #expect(try root.names(in: ".") == ["file"])
    }

    @Test("bytes_downloaded and bytes_written: a network load, a memory hit and a disk hit")
    func byteCounts() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let output = try TemporaryDirectory()
        let url = server.http + "/static/badge.png"
        let size = try GetTests.sample("badge.png").count
        let arguments = ["get", url, url, "--cache-dir", cache.path, "--json", "--sequential"]
        let first = try await run(arguments + ["--output-dir", output.path], plugins: plugins)
        #expect(first.status == 0, "\(first.standardError)")
        let disk = try await run(arguments + ["--output-dir", output.path], plugins: plugins)
        let unwritten = try await run(arguments, plugins: plugins)
        let all = try reports(first) + reports(disk) + reports(unwritten)
        #expect(all.map { $0["cache_type"] as? String } == ["none", "memory", "disk", "memory", "disk", "memory"])
        #expect(all.map { $0["bytes_downloaded"] as? Int } == [size, 0, 0, 0, 0, 0])
        #expect(all.map { $0["bytes_written"] as? Int } == [size, size, size, size, 0, 0])
        #expect(try output.names(in: ".") == ["badge-2.png", "badge-3.png", "badge-4.png", "badge.png"])
        for name in try output.names(in: ".") { #expect(try output.bytes(name).count == size) }

        let thumbnail = try await run(
            ["get", url, "--thumbnail", "32x32", "-o", output.file("small.png"), "--cache-dir", cache.path, "--json"],
            plugins: plugins)
        let small = try #require(try reports(thumbnail).first)
        #expect(small["cache_type"] as? String == "disk")
        #expect(small["bytes_downloaded"] as? Int == 0)
        #expect(small["bytes_written"] as? Int == (try output.bytes("small.png")).count)
        #expect(small["width"] as? Int == 32 && small["height"] as? Int == 32)
        #expect(server.requests(matching: "/static/badge.png", atLeast: 1).count == 1)
    }

    @Test("fetch and prefetch --json: bytes downloaded and written, 0 for a 404 and for cache hits")
    func fetchAndPrefetchByteCounts() async throws {
        let server = try Self.server()
        let plugins = try PluginsFolder.make()
        let output = try TemporaryDirectory()
        let cache = try TemporaryDirectory()
        let badge = server.http + "/static/badge.png"
        let orbit = server.http + "/static/orbit.gif"
        let sizes = (try GetTests.sample("badge.png").count, try GetTests.sample("orbit.gif").count)
        let fetch = try await run(
            ["fetch", badge, server.http + "/static/missing.png", "-o", output.path, "--json"], plugins: plugins)
        let fetched = try reports(fetch)
        #expect(fetched.map { $0["bytes_downloaded"] as? Int } == [sizes.0, 0])
        #expect(fetched.map { $0["bytes_written"] as? Int } == [sizes.0, 0])
        let prefetch = ["prefetch", badge, orbit, "--cache-dir", cache.path, "--json"]
        let network = try await run(prefetch, plugins: plugins)
        #expect(network.status == 0, "\(network.standardError)")
        #expect(try network.json()["bytes_downloaded"] as? Int == sizes.0 + sizes.1)
        let cached = try await run(prefetch, plugins: plugins)
        #expect(try cached.json()["bytes_downloaded"] as? Int == 0)
    }
}
