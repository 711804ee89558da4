import Foundation
import Testing
import WebImageCoderVerifier
import WebImageTestSupport

/// Transformers and concurrent decodes within the byte limits, through `webimage convert` and
/// the image manager (`webimage get`): a 9999 × 9999 PNG (630 KB, 400 MB decoded) blurred, an
/// animated WebP bomb transformed frame by frame, eight such PNGs decoded at once. Each run is
/// a child process whose peak resident memory the kernel reports.
@Suite("webimage within the transform and concurrent byte limits", .ownThread)
struct TransformLimitCommandTests {
    /// The default byte limit of one decode and of one transform: 1 GiB.
    static let byteLimit = 1 << 30
    /// The 9999 × 9999 black PNG.
    static let bigPNG = HostileImages.blankPNG(width: 9999, height: 9999)

    let plugins: PluginsFolder
    let folder: TemporaryDirectory

    init() throws {
        plugins = try PluginsFolder.make()
        folder = try TemporaryDirectory()
    }

    /// Runs `webimage arguments... --plugin-path` in-process (`--isolation none`, so the peak
    /// is the decode's and the transform's too), killed after 120 s (times ``HangBound/scale``).
    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> MeasuredRun {
        let result = try await MeasuredProcess.run(
            try BuildProducts.executable.path, arguments + ["--plugin-path", plugins.path, "--isolation", "none"],
            environment: environment, timeLimit: HangBound.scaled(.seconds(120)))
        #expect(!result.timedOut, "\(arguments) was killed after \(HangBound.scaled(.seconds(120)))")
        #expect(result.signal == nil, "\(arguments) ended by signal \(result.signal ?? 0)")
        return result
    }

    /// The entries of the disk cache in `cache` (`webimage cache list --json`).
    func cachedEntries(_ cache: TemporaryDirectory) async throws -> [Any] {
        let list = try await run(["cache", "list", "--cache-dir", cache.path, "--json"])
        #expect(list.exitStatus == 0, "\(list.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [Any])
    }

    /// What `Blur(3)` states it allocates for 9999 × 9999 RGBA8: the output (4 bytes a pixel),
    /// the float image between its phases (16) and, per core, two float rows or a strip of 32
    /// columns (the larger).
    static var blurBytes: Int {
        let side = 9999
        let perCore = max(side * 2 * 16, 32 * (2 * side + 1) * 16)
        return side * side * 4 + side * side * 16 + ProcessInfo.processInfo.activeProcessorCount * perCore
    }

    static var blurRefusal: String {
        "image too large: transforming 9999×9999 pixels with Blur(3) needs \(blurBytes) bytes, over the limit of "
            + "\(byteLimit) bytes"
    }

    @Test("the blank PNG is small, valid and 9999×9999")
    func bigPNGIsValid() async throws {
        #expect(Self.bigPNG.count == 629_903)
        let image = try folder.write("big.png", Self.bigPNG)
        let info = try await run(["info", image, "--json"])
        #expect(info.exitStatus == 0, "\(info.standardError)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any])
        #expect(json["width"] as? Int == 9999 && json["height"] as? Int == 9999)
    }

    @Test("convert --transform blur:3 of a 9999×9999 PNG is refused before the blur allocates")
    func convertBlurRefused() async throws {
        let image = try folder.write("big.png", Self.bigPNG)
        let output = folder.file("blurred.png")
        let result = try await run(["convert", image, output, "--transform", "blur:3"])
        #expect(result.exitStatus == 1)
        #expect(result.errorLines == ["error: cannot transform '\(image)' with Blur(3): \(Self.blurRefusal)"])
        // The decode (400 MB) happened; the blur's 2 GB did not.
        result.expectPeak(below: Self.byteLimit)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("get --transform blur:3 through the image manager: refused before the blur, nothing stored")
    func managerBlurRefused() async throws {
        let server = try NginxServer(files: ["big.png": Self.bigPNG])
        let url = server.http + "/static/big.png"
        let cache = try TemporaryDirectory()
        let result = try await run(["get", url, "--transform", "blur:3", "--cache-dir", cache.path, "--json"])
        #expect(result.exitStatus == 1)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(report["error"] as? String == "transform failed: \(Self.blurRefusal)")
        result.expectPeak(below: Self.byteLimit)
        #expect(try await cachedEntries(cache).isEmpty)
    }

    @Test("an animated WebP bomb with transform-animated-image: refused for all its frames, nothing stored or written")
    func animatedBombRefused() async throws {
        let server = try NginxServer(files: ["bomb.webp": HostileImages.webp(width: 9999, height: 9999, frames: 1000)])
        let url = server.http + "/static/bomb.webp"
        let cache = try TemporaryDirectory()
        let output = folder.file("flipped.webp")
        let result = try await run([
            "get", url, "--options", "transform-animated-image", "--transform", "flip:h", "--cache-dir", cache.path,
            "-o", output,
        ])
        #expect(result.exitStatus == 1)
        let refusal =
            "animation too large: transforming 1000 frames of 9999×9999 pixels with Flip(h) holds "
            + "\(1000 * 9999 * 9999 * 4) bytes, over the limit of 536870912 bytes"
        #expect(result.errorLines == ["error: \(url): transform failed: \(refusal)"])
        result.expectPeak(below: Self.byteLimit)
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try await cachedEntries(cache).isEmpty)
    }

    @Test("eight 9999×9999 PNGs decoded at once wait for the concurrent budget instead of all running")
    func concurrentBudgetBoundsDecodes() async throws {
        let names = (1...8).map { "big\($0).png" }
        let server = try NginxServer(
            files: Dictionary(
                uniqueKeysWithValues: names.enumerated().map {
                    ($0.element, HostileImages.blankPNG(width: 9999, height: 9999, seed: UInt8($0.offset)))
                }))
        let budget = 500_000_000
        let result = try await run(
            ["get"] + names.map { server.http + "/static/" + $0 } + ["--store-cache-type", "none", "--json"],
            environment: ["WEBIMAGE_MAX_CONCURRENT_BYTES": "\(budget)"])
        #expect(result.exitStatus == 0, "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n").count == 8)
        // One 400 MB decode at a time fits the budget, two do not: the peak stays below the
        // budget plus 100 MB for the tool, its libraries and the downloads.
        result.expectPeak(below: budget + 100_000_000)
    }
}
