import Foundation
import Testing
import WebImageTestSupport

@Suite("webimage bench decode")
struct BenchDecodeTests {
    /// A JSON value as a finite number, or nil.
    private func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, !(value is Bool), number.doubleValue.isFinite else { return nil }
        return number.doubleValue
    }

    @Test("--iterations 3 --json: exactly the plugin keys, numeric, min <= median")
    func pluginOnly() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["bench", "decode", Fixture.path("png/rgba8.png"), "--iterations", "3", "--json"], plugins: plugins
        )
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let json = try result.json()
        #expect(Set(json.keys) == ["format", "width", "height", "iterations", "median_ms", "min_ms"])
        #expect(json["format"] as? String == "png")
        #expect(json["width"] as? Int == 13)
        #expect(json["height"] as? Int == 7)
        #expect(json["iterations"] as? Int == 3)
        let median = try #require(number(json["median_ms"]))
        let minimum = try #require(number(json["min_ms"]))
        #expect(minimum > 0)
        #expect(minimum <= median)
    }

    @Test(
        "--reference on PNG and JPEG: reference times and ratios in the same run",
        arguments: [("png/rgb8.png", "png", 13, 7), ("jpeg/baseline.jpg", "jpeg", 61, 43)])
    func reference(_ fixture: String, _ format: String, _ width: Int, _ height: Int) async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["bench", "decode", Fixture.path(fixture), "--iterations", "3", "--reference", "--json"],
            plugins: plugins)
        #expect(result.status == 0)
        let json = try result.json()
        #expect(
            Set(json.keys) == [
                "format", "width", "height", "iterations", "median_ms", "min_ms", "reference_median_ms",
                "reference_min_ms", "ratio_min", "ratio_median",
            ])
        #expect(json["format"] as? String == format)
        #expect(json["width"] as? Int == width)
        #expect(json["height"] as? Int == height)
        let minimum = try #require(number(json["min_ms"]))
        let referenceMinimum = try #require(number(json["reference_min_ms"]))
        let ratio = try #require(number(json["ratio_min"]))
        #expect(referenceMinimum > 0)
        #expect(try #require(number(json["reference_median_ms"])) >= referenceMinimum)
        #expect(abs(ratio - minimum / referenceMinimum) <= 0.01 * ratio + 0.001)
        #expect(try #require(number(json["ratio_median"])) > 0)
    }

    @Test("text: a JPEG thumbnail's reference decodes at the plugin's DCT scale")
    func jpegThumbnailReference() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            [
                "bench", "decode", Fixture.path("jpeg/baseline.jpg"), "--iterations", "3", "--thumbnail",
                "16x16",
                "--reference",
            ], plugins: plugins)
        #expect(result.status == 0)
        let lines = result.outputLines
        #expect(lines.contains("image:            jpeg 61x43, decoded to 16x11"))
        #expect(lines.contains("iterations:       3 per side after 1 warm-up, interleaved"))
        #expect(lines.contains("reference does:   libjpeg-turbo DCT-scaled decode at 2/8, no resize to 16x11 RGBA8"))
        #expect(lines.contains { $0.hasPrefix("plugin/reference: median ") })
    }

    @Test("--reference-api simplified: the PNG reference uses libpng's png_image API")
    func simplifiedPNGReference() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            [
                "bench", "decode", Fixture.path("png/palette8.png"), "--iterations", "3", "--reference",
                "--reference-api", "simplified",
            ], plugins: plugins)
        #expect(result.status == 0)
        #expect(
            result.outputLines.contains(
                "reference does:   libpng full-size decode, simplified API (png_image) to 13x7 RGBA8"))
    }

    @Test("--all-frames on an animated GIF: every frame through the plugin against giflib's slurp")
    func allFramesOfAGIF() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            [
                "bench", "decode", Fixture.path("gif/anim.gif"), "--iterations", "3", "--reference",
                "--all-frames",
            ], plugins: plugins)
        #expect(result.status == 0)
        #expect(
            result.outputLines.contains("reference does:   giflib DGifSlurp, all 4 frames composited to 8x6 RGBA8"))
    }

    @Test(
        "--reference on HEIC and AVIF: libheif's own decode to RGBA is the reference",
        arguments: [
            ("heif/rgb.heic", "libheif heif_decode_image to RGBA, libde265 (libheif's own plugin) to 96x64 RGBA8"),
            ("heif/rgb.avif", "libheif heif_decode_image to RGBA, libheif's default AV1 decoder to 96x64 RGBA8"),
        ])
    func heifReference(_ fixture: String, _ description: String) async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["bench", "decode", Fixture.path(fixture), "--iterations", "3", "--reference"], plugins: plugins)
        #expect(result.status == 0)
        #expect(result.outputLines.contains("reference does:   \(description)"))
        #expect(result.outputLines.contains { $0.hasPrefix("plugin/reference: median ") })
    }

    @Test("a format the reference library cannot decode: said so, plugin times still reported")
    func referenceUnavailable() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["bench", "decode", Fixture.path("jpeg/cmyk.jpg"), "--iterations", "2", "--reference", "--json"],
            plugins: plugins)
        #expect(result.status == 0)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("note: no reference run: ") == true)
        #expect(try Set(result.json().keys) == ["format", "width", "height", "iterations", "median_ms", "min_ms"])
    }

    @Test("--reference with no webimage-bench next to webimage is one error line")
    func referenceWithoutBenchExecutable() async throws {
        let plugins = try PluginsFolder.make()
        let lonely = try LonelyExecutable()
        defer { lonely.remove() }
        let result = try await WebImageProcess.run(
            ["bench", "decode", Fixture.path("png/rgb8.png"), "--iterations", "1", "--reference"]
                + ["--plugin-path", plugins.path], executable: lonely.executable)
        let benchPath = lonely.folder.resolvingSymlinksInPath().appendingPathComponent("webimage-bench").path
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(
            result.errorLines == [
                "error: --reference needs webimage-bench, which links the C reference decoders, next to webimage: "
                    + "'\(benchPath)' is not installed "
                    + "(build it with 'swift build --product webimage-bench'; 'make install' installs it)"
            ])
    }

    @Test("without --reference the bench runs in webimage itself, even with no webimage-bench beside it")
    func pluginOnlyWithoutBenchExecutable() async throws {
        let plugins = try PluginsFolder.make()
        let lonely = try LonelyExecutable()
        defer { lonely.remove() }
        // The lonely copy has no webimage-plugin-worker beside it either, so its (untrusted)
        // plugins run in-process.
        let result = try await WebImageProcess.run(
            ["bench", "decode", Fixture.path("png/rgb8.png"), "--iterations", "2", "--json", "--isolation", "none"]
                + ["--plugin-path", plugins.path], executable: lonely.executable)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(try Set(result.json().keys) == ["format", "width", "height", "iterations", "median_ms", "min_ms"])
    }

    @Test("--iterations 0 is one error line")
    func zeroIterations() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["bench", "decode", Fixture.path("png/rgb8.png"), "--iterations", "0"], plugins: plugins)
        #expect(result.status == 1)
        #expect(result.errorLines == ["error: --iterations must be at least 1, not 0"])
    }
}
