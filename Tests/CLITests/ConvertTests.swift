import Foundation
import Testing
import WebImageTestSupport

@Suite("webimage convert")
struct ConvertTests {
    /// Runs `convert` with the test plugins and returns the result and the output's `info --json`.
    private func convert(
        _ fixture: String, to outputName: String, _ options: [String] = [], in folder: PluginsFolder
    ) async throws -> (result: CommandResult, output: String) {
        let output = folder.file(outputName)
        let result = try await WebImageProcess.run(
            ["convert", Fixture.path(fixture), output] + options, plugins: folder)
        return (result, output)
    }

    /// `info --json` of a file.
    private func info(_ path: String, in folder: PluginsFolder) async throws -> [String: Any] {
        let result = try await WebImageProcess.run(["info", path, "--json"], plugins: folder)
        #expect(result.status == 0, "info failed: \(result.standardError)")
        return try result.json()
    }

    @Test("png -> jpg thumbnail 8x8 keeps the aspect ratio: 13x7 becomes 8x4")
    func pngToJPEGThumbnail() async throws {
        let folder = try PluginsFolder.make()
        let (result, output) = try await convert("png/rgba8.png", to: "out.jpg", ["--thumbnail", "8x8"], in: folder)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(
            result.outputLines == ["\(Fixture.path("png/rgba8.png")) (png 13x7) -> \(output) (jpeg 8x4)"])
        let json = try await info(output, in: folder)
        #expect(json["format"] as? String == "jpeg")
        #expect(json["width"] as? Int == 8)
        #expect(json["height"] as? Int == 4)
    }

    @Test("jpg -> png thumbnail 8x8: 61x43 becomes 8x6")
    func jpegToPNGThumbnail() async throws {
        let folder = try PluginsFolder.make()
        let (result, output) = try await convert(
            "jpeg/baseline.jpg", to: "out.png", ["--thumbnail", "8x8"], in: folder)
        #expect(result.status == 0)
        #expect(result.outputLines.first?.hasSuffix("(jpeg 61x43) -> \(output) (png 8x6)") == true)
        let json = try await info(output, in: folder)
        #expect(json["format"] as? String == "png")
        #expect(json["width"] as? Int == 8)
        #expect(json["height"] as? Int == 6)
    }

    @Test("--no-aspect makes the output exactly the box")
    func exactBox() async throws {
        let folder = try PluginsFolder.make()
        let (result, output) = try await convert(
            "jpeg/baseline.jpg", to: "out.png", ["--thumbnail", "8x8", "--no-aspect"], in: folder)
        #expect(result.status == 0)
        let json = try await info(output, in: folder)
        #expect(json["width"] as? Int == 8)
        #expect(json["height"] as? Int == 8)
    }

    @Test("EXIF orientation 6 is applied: 61x43 becomes 43x61, stored upright")
    func orientationApplied() async throws {
        let folder = try PluginsFolder.make()
        let (result, output) = try await convert("jpeg/orientation-6.jpg", to: "out.png", in: folder)
        #expect(result.status == 0)
        #expect(result.outputLines.first?.hasSuffix("(jpeg 61x43) -> \(output) (png 43x61)") == true)
        let json = try await info(output, in: folder)
        #expect(json["width"] as? Int == 43)
        #expect(json["height"] as? Int == 61)
        #expect(json["orientation"] as? Int == 1)
    }

    @Test("--no-auto-orient keeps the stored 61x43 pixels")
    func orientationKept() async throws {
        let folder = try PluginsFolder.make()
        let (result, output) = try await convert(
            "jpeg/orientation-6.jpg", to: "out.png", ["--no-auto-orient"], in: folder)
        #expect(result.status == 0)
        let json = try await info(output, in: folder)
        #expect(json["width"] as? Int == 61)
        #expect(json["height"] as? Int == 43)
    }

    @Test("a 16-bit PNG stays 16-bit")
    func sixteenBitKept() async throws {
        let folder = try PluginsFolder.make()
        let (result, output) = try await convert("png/rgba16.png", to: "out.png", in: folder)
        #expect(result.status == 0)
        let json = try await info(output, in: folder)
        #expect(json["bits_per_component"] as? Int == 16)
    }

    @Test(
        "bad input is one error line, exit status 1, no output file",
        arguments: [
            ("jpeg/bad-truncated-baseline.jpg", "out.png", [], "error: truncated JPEG: "),
            ("jpeg/bad-truncated-progressive.jpg", "out.png", [], "error: truncated JPEG: "),
            ("png/bad-truncated.png", "out.jpg", [], "error: truncated PNG: "),
            ("png/missing.png", "out.png", [], "error: no such file: '"),
            (
                "png/rgba8.png", "out.xyz", [],
                "error: unsupported output extension '.xyz': no coder handles the format 'xyz'"
            ),
            ("png/rgba8.png", "out", [], "error: cannot choose an output format: '"),
            ("png/rgba8.png", "out.png", ["--thumbnail", "8by8"], "error: invalid --thumbnail '8by8': "),
            ("png/rgba8.png", "out.png", ["--thumbnail", "0x8"], "error: invalid --thumbnail '0x8': "),
            ("png/rgba8.png", "out.png", ["--quality", "101"], "error: --quality must be between 0 and 100, not 101"),
            ("png/rgba8.png", "out.png", ["--max-pixels", "90"], "error: image too large: "),
        ] as [(String, String, [String], String)])
    func badInput(_ fixture: String, _ outputName: String, _ options: [String], _ errorPrefix: String) async throws {
        let folder = try PluginsFolder.make()
        let (result, output) = try await convert(fixture, to: outputName, options, in: folder)
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix(errorPrefix) == true, "got: \(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
