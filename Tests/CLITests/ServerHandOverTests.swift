import Foundation
import Testing
import WebImageTestSupport

/// `webimage serve` and `webimage sign` run in `webimage-serve`, which `webimage` replaces
/// itself with: the same arguments, output, exit status and process.
@Suite("webimage serve and sign handed over to webimage-serve", .ownThread)
struct ServerHandOverTests {
    @Test("webimage sign prints what webimage-serve sign prints")
    func signThroughTheTool() async throws {
        let path = "/rs:fit:10:10/plain/http://127.0.0.1/a.jpg"
        let arguments = ["sign", path, "--key", "6b6579", "--salt", "73616c74"]
        let viaTool = try await WebImageProcess.run(arguments)
        let direct = try await WebImageProcess.run(arguments, executable: try BuildProducts.serveExecutable)
        let signature = try OpenSSLSignature.signature(of: path, keyHex: "6b6579", saltHex: "73616c74")
        #expect(viaTool.status == 0)
        #expect(viaTool.standardError == "")
        #expect(viaTool.outputLines == ["/\(signature)\(path)"])
        #expect(direct.status == 0)
        #expect(direct.outputLines == viaTool.outputLines)
    }

    @Test(
        "help reads as the tool's own",
        arguments: [
            (["serve", "--help"], 0, "OVERVIEW: Serve processed images at imgproxy-style signed URLs."),
            (["help", "serve"], 0, "OVERVIEW: Serve processed images at imgproxy-style signed URLs."),
            (["help", "sign"], 0, "OVERVIEW: Sign an image server path (imgproxy's URL signatures)."),
            (["sign", "--help"], 0, "OVERVIEW: Sign an image server path (imgproxy's URL signatures)."),
        ])
    func help(arguments: [String], status: Int32, firstLine: String) async throws {
        let result = try await WebImageProcess.run(arguments)
        let command = arguments[0] == "help" ? arguments[1] : arguments[0]
        #expect(result.status == status)
        #expect(result.standardError == "")
        #expect(result.outputLines.first == firstLine)
        #expect(result.outputLines.contains { $0.hasPrefix("USAGE: webimage \(command) ") })
    }

    @Test("an unknown option names webimage serve in its usage line")
    func usageError() async throws {
        let result = try await WebImageProcess.run(["serve", "--no-such-flag"])
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(result.errorLines.first == "error: Unknown option '--no-such-flag'")
        #expect(result.errorLines.dropFirst().first == "Usage: webimage serve <options>")
    }

    @Test("serve without a key is refused by webimage-serve, through the tool")
    func refusal() async throws {
        let result = try await WebImageProcess.run(
            ["-u", "WEBIMAGE_SERVE_KEY", "-u", "WEBIMAGE_SERVE_SALT", try BuildProducts.executable.path, "serve"],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(result.status == 1)
        #expect(
            result.errorLines == [
                "error: no signing key: give --key HEX --salt HEX (or WEBIMAGE_SERVE_KEY and WEBIMAGE_SERVE_SALT), or --allow-unsigned to accept unsigned URLs"
            ])
    }

    @Test(
        "with no webimage-serve next to webimage, serve and sign are one error line each", arguments: ["serve", "sign"])
    func withoutServeExecutable(command: String) async throws {
        let lonely = try LonelyExecutable()
        defer { lonely.remove() }
        let result = try await WebImageProcess.run([command, "--help"], executable: lonely.executable)
        let servePath = lonely.folder.resolvingSymlinksInPath().appendingPathComponent("webimage-serve").path
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(
            result.errorLines == [
                "error: webimage \(command) needs webimage-serve, which holds the image server, next to webimage: "
                    + "'\(servePath)' is not installed "
                    + "(build it with 'swift build --product webimage-serve'; 'make install' installs it)"
            ])
    }

    @Test("the tool's other commands run with no webimage-serve beside it")
    func otherCommandsWithoutServeExecutable() async throws {
        let lonely = try LonelyExecutable()
        defer { lonely.remove() }
        let result = try await WebImageProcess.run(["--help"], executable: lonely.executable)
        #expect(result.status == 0)
        #expect(result.outputLines.contains { $0.hasPrefix("  serve ") })
        #expect(result.outputLines.contains { $0.hasPrefix("  sign ") })
    }
}
