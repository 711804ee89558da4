import Foundation
import Testing
import WebImageTestSupport

/// The progress bar of `fetch`, `get` and `prefetch`, on a pseudo-terminal (it draws only when
/// standard error is one).
@Suite("fetch, get and prefetch: the progress bar on a terminal", .ownThread) struct ProgressBarCommandTests {
    /// Two images from nginx, one of them (96,343 bytes) dripping from /slow/ at 20 KB/s, so
    /// it takes more than four seconds: the bar, redrawn every 250 ms, is drawn while it
    /// arrives, with the bytes of the 126,556 expected, the rate and the time left.
    @Test(
        "while a file drips: bytes of the expected total, a rate and the time left; then the closing line",
        arguments: ["fetch", "get", "prefetch"])
    func bytesWhileTheyArrive(command: String) async throws {
        let samples = GetTests.samples
        let server = try NginxServer(files: [
            "badge.png": [UInt8](try Data(contentsOf: samples.appendingPathComponent("badge.png"))),
            "landscape.jpg": [UInt8](try Data(contentsOf: samples.appendingPathComponent("landscape.jpg"))),
        ])
        let plugins = try PluginsFolder.make()
        let folder = try TemporaryDirectory()
        let destination = command == "fetch" ? ["-o", folder.path] : ["--cache-dir", folder.path]
        let result = try await WebImageProcess.runOnTerminal(
            [command, "--plugin-path", plugins.path] + destination + [
                server.http + "/static/badge.png", server.http + "/slow/landscape.jpg",
            ])
        #expect(result.status == 0, "\(result.standardOutput)")
        let noun = command == "fetch" ? "files" : "images"
        let rate = #"[0-9.]+ [kMG]?B/s"#
        let arriving = #"\r\[[#-]{30}\] [01]/2 \#(noun), [0-9.]+ k?B of 126\.6 kB, \#(rate), [0-9]+:[0-9]{2} left"#
        #expect(
            result.standardOutput.range(of: arriving, options: .regularExpression) != nil, "\(result.standardOutput)")
        let closing = #"\r\[#{30}\] 2/2 \#(noun), 126\.6 kB, \#(rate) in [0-9]+:[0-9]{2} *\r\n"#
        #expect(
            result.standardOutput.range(of: closing, options: .regularExpression) != nil, "\(result.standardOutput)")
        if command == "prefetch" {
            #expect(
                result.standardOutput.range(
                    of: closing + #"2 of 2 prefetched, 0 failed, 0 skipped, 0 stores failed, in [0-9.]+ ms\r\n"#,
                    options: .regularExpression) != nil, "\(result.standardOutput)")
        }
    }
}
