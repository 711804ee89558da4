import Foundation
import Testing
import WebImageCoderVerifier
import WebImageTestSupport

/// `webimage` on files whose headers declare huge images ("bombs", rebuilt here byte by
/// byte): each run is a child process whose peak resident memory the kernel reports
/// (`wait4`), and each ends within its time limit with a typed error line or a bounded result.
/// Every case runs twice: with the default isolation, where the bundled plugins found through
/// `--plugin-path` run in their workers, and with `--isolation none`, in-process; the errors,
/// the bounds and the frame-by-frame conversions are the same.
@Suite("webimage on hostile inputs")
struct HostileInputCommandTests {
    /// The most resident memory a run may reach.
    static let peakLimit = 512 << 20
    /// Bytes of a 9999 × 9999 RGBA8 canvas.
    static let canvasBytes = 9999 * 9999 * 4

    /// Where the plugins run.
    enum Isolation: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// The default (`untrusted`): plugins from `--plugin-path` run in worker processes.
        case worker
        /// `--isolation none`: every plugin runs in the `webimage` process.
        case inProcess

        var arguments: [String] { self == .worker ? [] : ["--isolation", "none"] }
        var testDescription: String { self == .worker ? "isolated" : "in-process" }
    }

    let plugins: PluginsFolder
    let folder: TemporaryDirectory

    init() throws {
        plugins = try PluginsFolder.make()
        folder = try TemporaryDirectory()
    }

    /// Runs `webimage arguments... --plugin-path` and checks the bounds every run must keep.
    func run(_ isolation: Isolation, _ arguments: [String]) async throws -> MeasuredRun {
        let result = try await MeasuredProcess.run(
            try BuildProducts.executable.path, arguments + ["--plugin-path", plugins.path] + isolation.arguments,
            timeLimit: .seconds(60))
        #expect(!result.timedOut, "\(arguments) was killed after 60 s")
        #expect(result.signal == nil, "\(arguments) ended by signal \(result.signal ?? 0)")
        result.expectPeak(below: Self.peakLimit, "\(arguments) ")
        return result
    }

    /// Runs a command that must fail with exactly `message` on one line and write no file.
    func expectFailure(_ isolation: Isolation, _ arguments: [String], _ message: String) async throws {
        let result = try await run(isolation, arguments)
        #expect(result.exitStatus == 1)
        #expect(result.errorLines == ["error: \(message)"], "\(arguments)")
        if arguments.first == "convert" { #expect(!FileManager.default.fileExists(atPath: arguments[2])) }
    }

    /// What `webimage info FILE --json` says of `file`; the command must succeed.
    func info(_ isolation: Isolation, _ file: String) async throws -> [String: Any] {
        let info = try await run(isolation, ["info", file, "--json"])
        #expect(info.exitStatus == 0)
        return try #require(try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any])
    }

    func animationTooLarge(frames: Int, of size: String, needing bytes: Int) -> String {
        let held = frames == 1 ? "a frame" : "\(frames) frames"
        return "animation too large: holding \(held) of \(size) pixels and the 9999×9999 canvas needs \(bytes) "
            + "bytes, over the limit of 536870912 bytes"
    }

    @Test(
        "a PNG declaring 2147483647×135: info, convert and convert --thumbnail refuse it at the header",
        arguments: Isolation.allCases)
    func pngBomb(isolation: Isolation) async throws {
        let bomb = try folder.write("bomb.png", HostileImages.png(width: 2_147_483_647, height: 135))
        let message = "image too large: the width exceeds the limit of 1000000 pixels a side"
        try await expectFailure(isolation, ["info", bomb], message)
        try await expectFailure(isolation, ["convert", bomb, folder.file("out.png")], message)
        try await expectFailure(
            isolation, ["convert", bomb, folder.file("thumb.png"), "--thumbnail", "64x64"], message)
    }

    @Test(
        "a GIF of 100 frames on a 9999×9999 screen: described, and refused before any canvas is allocated",
        arguments: Isolation.allCases)
    func gifBomb(isolation: Isolation) async throws {
        let bytes = HostileImages.gif(width: 9999, height: 9999, frames: 100)
        #expect(bytes.count == 2_339)
        let bomb = try folder.write("bomb.gif", bytes)
        let json = try await info(isolation, bomb)
        #expect(json["frames"] as? Int == 100 && json["width"] as? Int == 9999 && json["height"] as? Int == 9999)
        // Animations are written frame by frame: one frame and the canvas would be held.
        let oneFrame = animationTooLarge(frames: 1, of: "9999×9999", needing: Self.canvasBytes * 2)
        try await expectFailure(isolation, ["convert", bomb, folder.file("out.png")], oneFrame)
        try await expectFailure(isolation, ["convert", bomb, folder.file("out.webp")], oneFrame)
        try await expectFailure(
            isolation, ["convert", bomb, folder.file("thumb.gif"), "--thumbnail", "64x64"], oneFrame)
        try await expectFailure(isolation, ["convert", bomb, folder.file("still.jpg")], oneFrame)
        try await expectFailure(
            isolation, ["convert", bomb, folder.file("few.gif"), "--max-frames", "50"],
            "animation too large: 100 frames exceed the limit of 50 frames")
    }

    @Test(
        "an animated WebP of 1,000 frames at 9999×9999: described, and refused before any canvas is allocated",
        arguments: Isolation.allCases)
    func webpBomb(isolation: Isolation) async throws {
        let bytes = HostileImages.webp(width: 9999, height: 9999, frames: 1000)
        #expect(bytes.count == 46_044)
        let bomb = try folder.write("bomb.webp", bytes)
        let json = try await info(isolation, bomb)
        #expect(json["frames"] as? Int == 1000 && json["width"] as? Int == 9999)
        let oneFrame = animationTooLarge(frames: 1, of: "9999×9999", needing: Self.canvasBytes * 2)
        try await expectFailure(isolation, ["convert", bomb, folder.file("out.png")], oneFrame)
        try await expectFailure(isolation, ["convert", bomb, folder.file("out.webp")], oneFrame)
        try await expectFailure(
            isolation, ["convert", bomb, folder.file("thumb.gif"), "--thumbnail", "64x64"],
            animationTooLarge(frames: 1, of: "9999×9999", needing: Self.canvasBytes * 2))
    }

    @Test(
        "a decode over --max-bytes is refused with the plugin's typed error, for the output and a thumbnail's rows",
        arguments: Isolation.allCases)
    func byteLimit(isolation: Isolation) async throws {
        let image = try folder.write("small.png", try Fixture.bytes("png/rgba8.png"))
        let limit = ["--max-bytes", "100"]
        try await expectFailure(
            isolation, ["convert", image, folder.file("out.png")] + limit,
            "image too large: decoding the output needs 364 bytes, over the limit of 100 bytes")
        try await expectFailure(
            isolation, ["convert", image, folder.file("thumb.png"), "--thumbnail", "4x4"] + limit,
            "image too large: decoding a row-streamed thumbnail needs 1113 bytes, over the limit of 100 bytes")
    }

    @Test("the frame loop stops at the decode timeout with a typed error", arguments: Isolation.allCases)
    func frameLoopDeadline(isolation: Isolation) async throws {
        let animation = try folder.write("long.gif", HostileImages.gif(width: 2000, height: 2000, frames: 100))
        let result = try await run(
            isolation,
            ["convert", animation, folder.file("out.gif"), "--thumbnail", "64x64", "--decode-timeout", "0.05"])
        #expect(result.exitStatus == 1)
        #expect(result.errorLines.count == 1)
        // Where it stops depends on the machine: before a frame, inside the plugin's frame loop or
        // while a frame is resized to the thumbnail; the line says which.
        #expect(result.errorLines.first?.hasPrefix("error: decode timed out ") == true, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.gif")))
    }

    @Test(
        "a GIF cut inside its tenth frame: info lists 9 frames and every conversion delivers them",
        arguments: Isolation.allCases)
    func truncatedAnimationAgrees(isolation: Isolation) async throws {
        let whole = HostileImages.gif(width: 20, height: 10, frames: 10)
        let cut = try folder.write("cut.gif", Array(whole.prefix(HostileImages.gifFrameOffset(9) + 12)))
        let info = try await run(isolation, ["info", cut, "--json"])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any])
        #expect(json["frames"] as? Int == 9)
        #expect((json["frame_durations_ms"] as? [Int])?.count == 9)
        for name in ["cut.png", "cut.gif", "cut.webp"] {
            let result = try await run(isolation, ["convert", cut, folder.file(name)])
            #expect(result.exitStatus == 0, "\(name): \(result.standardError)")
            #expect(result.standardOutput.hasSuffix("20x10, 9 frames)\n"), "\(name): \(result.standardOutput)")
        }
        let still = try await run(isolation, ["convert", cut, folder.file("cut.jpg")])
        #expect(still.exitStatus == 0, "\(still.standardError)")
        #expect(still.standardOutput.hasSuffix("(jpeg 20x10)\n"))
    }

    @Test(
        "animated APNG, GIF and WebP outputs are written frame by frame, under a budget too small for every frame",
        arguments: Isolation.allCases)
    func animatedConversionStreams(isolation: Isolation) async throws {
        // 40 frames of 200×200: all of them and the canvas are 6,560,000 bytes, one frame and
        // the canvas 320,000: conversions frame by frame need only the latter.
        let animation = try folder.write("source.gif", HostileImages.gif(width: 200, height: 200, frames: 40))
        let budget = ["--max-animation-bytes", "4000000"]
        for name in ["forty.png", "forty.gif", "forty.webp"] {
            let result = try await run(isolation, ["convert", animation, folder.file(name)] + budget)
            #expect(result.exitStatus == 0, "\(name): \(result.standardError)")
            #expect(result.standardOutput.hasSuffix("200x200, 40 frames)\n"), "\(result.standardOutput)")
        }
        // The frames are all alike: libwebp's encoder merges them into one; APNG and GIF keep 40.
        for name in ["forty.png", "forty.gif"] {
            let info = try await run(isolation, ["info", folder.file(name), "--json"])
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any])
            #expect(json["frames"] as? Int == 40)
            #expect((json["frame_durations_ms"] as? [Int]) == Array(repeating: 100, count: 40))
        }
        try await expectFailure(
            isolation, ["convert", animation, folder.file("small.gif")] + ["--max-animation-bytes", "300000"],
            "animation too large: holding a frame of 200×200 pixels and the 200×200 canvas needs 320000 bytes, "
                + "over the limit of 300000 bytes")
    }
}
