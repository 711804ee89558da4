import Foundation
import Testing
import WebImageTestSupport

/// `fetch` and `get` given URLs and headers an attacker chooses: a huge `data:` URL, a huge
/// http URL, `file:` URLs (a private file, a FIFO), a header with CR/LF, a redirect loop. Each
/// ends with one typed error line, with URLs cut to 200 characters in every message.
@Suite("webimage fetch and get: hostile URLs and headers", .ownThread) struct HostileURLCommandTests {
    func run(_ command: String, _ arguments: [String]) async throws -> CommandResult {
        let plugins = try PluginsFolder.make()
        let cache = try TemporaryDirectory()
        let extra = command == "get" ? ["--cache-dir", cache.path] : []
        return try await WebImageProcess.run([command, "--plugin-path", plugins.path] + extra + arguments)
    }

    @Test(
        "a 9 MB data: URL (over the 8 MiB limit) is refused before decoding; messages show its first 200 characters and its size"
    )
    func hugeDataURL() async throws {
        let output = try TemporaryDirectory()
        let url = "data:image/png;base64," + String(repeating: "A", count: 9_000_000)
        let cut = String(url.prefix(200)) + "…(9000022 bytes)"
        let reason =
            "invalid URL: the URL is 9000022 bytes long, more than the limit of 8388608 for data: URLs"
        // Longer than one argument may be (128 KiB): given in a list file.
        let list = try TemporaryDirectory()
        let listFile = try list.write("urls.txt", url + "\n")
        let fetched = try await run("fetch", ["--from", listFile, "-o", output.path])
        #expect(fetched.status == 1)
        #expect(fetched.standardOutput == "")
        #expect(fetched.errorLines == ["error: \(cut): \(reason)"])
        let got = try await run("get", ["--from", listFile])
        #expect(got.status == 1)
        #expect(got.standardOutput == "")
        #expect(got.errorLines == ["error: \(cut): load failed: \(reason)"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == [])
    }

    @Test("an http URL over 64 KiB is refused before anything is sent")
    func hugeHTTPURL() async throws {
        let server = try NginxServer()
        let output = try TemporaryDirectory()
        let url = server.http + "/static/" + String(repeating: "a", count: 70_000) + ".png"
        let cut = String(url.prefix(200)) + "…(\(url.utf8.count) bytes)"
        let result = try await run("fetch", [url, "-o", output.path])
        #expect(
            result.errorLines == [
                "error: \(cut): invalid URL: the URL is \(url.utf8.count) bytes long, more than the limit of 65536 for URLs"
            ])
        #expect(server.requests(matching: "/static/a", atLeast: 0).isEmpty)
    }

    @Test("file: URLs only with --allow-file; a private file's bytes never appear in an error")
    func fileURLs() async throws {
        let folder = try TemporaryDirectory()
        let secret = try folder.write("passwd", "root:x:0:0:root:/root:/bin/bash\n")
        let url = "file://" + secret
        let refused = try await run("fetch", [url, "-o", folder.path])
        #expect(
            refused.errorLines == [
                "error: \(url): destination refused: file: URLs are not allowed"
            ])
        let decoded = try await run("get", [url, "--allow-file", "-o", folder.file("out.png")])
        #expect(
            decoded.errorLines == [
                "error: \(url): decode failed: not an image the loaded coders decode (looks like text, 32 bytes)"
            ])
        let output = try TemporaryDirectory()
        let copied = try await run("fetch", [url, "--allow-file", "-o", output.path])
        #expect(copied.status == 0, "\(copied.standardError)")
        #expect(
            try String(contentsOfFile: output.file("passwd"), encoding: .utf8) == "root:x:0:0:root:/root:/bin/bash\n")
    }

    @Test("file: on a FIFO is refused at once with --allow-file")
    func fifo() async throws {
        let folder = try TemporaryDirectory()
        let fifo = folder.file("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let unblock = Task {
            // Old code blocked in open(2) for ever: a writer opening the FIFO after the bound
            // ends that, so the test fails on the error line instead of hanging.
            try? await Task.sleep(for: HangBound.scaled(.seconds(20)))
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        defer { unblock.cancel() }
        let result = try await run("fetch", ["file://" + fifo, "--allow-file", "-o", folder.path])
        #expect(
            result.errorLines == [
                "error: file://\(fifo): destination refused: \(fifo) is not a regular file"
            ])
    }

    @Test("a header with CR/LF is refused as an invalid header, naming it; nothing is sent")
    func headerWithLineBreak() async throws {
        let server = try NginxServer()
        let output = try TemporaryDirectory()
        let url = server.http + "/static/none.png"
        let result = try await run("fetch", [url, "--header", "X-Injected: a\r\nHost: evil", "-o", output.path])
        #expect(
            result.errorLines == [
                "error: \(url): invalid header: the value of the header 'X-Injected' contains a line break or NUL"
            ])
        #expect(server.requests(matching: "/static/none.png", atLeast: 0).isEmpty)
    }

    @Test("fetch and get word a redirect loop alike")
    func redirectLoop() async throws {
        let server = try NginxServer()
        let output = try TemporaryDirectory()
        let url = server.http + "/loop"
        let reason = "network error: more than 10 redirects (a redirect loop) (curl error 47)"
        let fetched = try await run("fetch", [url, "-o", output.path])
        #expect(fetched.errorLines == ["error: \(url): \(reason)"])
        let got = try await run("get", [url, "-o", output.file("out.png")])
        #expect(got.errorLines == ["error: \(url): load failed: \(reason)"])
    }
}
