import Foundation
import Testing
import WebImageTestSupport

@Suite("webimage info")
struct InfoTests {
    /// Every valid PNG fixture with its bits per component and alpha; all are 13×7.
    static let pngFixtures: [(name: String, bits: Int, alpha: Bool)] = [
        ("gray1", 1, false), ("gray2", 2, false), ("gray4", 4, false), ("gray8", 8, false), ("gray8-trns", 8, true),
        ("gray16", 16, false), ("gray16-adam7", 16, false), ("graya8", 8, true), ("graya16", 16, true),
        ("palette1", 1, true), ("palette2", 2, true), ("palette4", 4, true), ("palette8", 8, true),
        ("palette8-adam7", 8, true), ("rgb8", 8, false), ("rgb8-trns", 8, true), ("rgb16", 16, false),
        ("rgba8", 8, true), ("rgba8-adam7", 8, true), ("rgba16", 16, true),
    ]

    @Test("PNG fixtures: 13x7, depth, alpha and pixel format", arguments: pngFixtures)
    func pngFixture(_ fixture: (name: String, bits: Int, alpha: Bool)) async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["info", Fixture.path("png/\(fixture.name).png"), "--json"], plugins: plugins)
        #expect(result.status == 0)
        let json = try result.json()
        #expect(json["format"] as? String == "png")
        #expect(json["width"] as? Int == 13)
        #expect(json["height"] as? Int == 7)
        #expect(json["frames"] as? Int == 1)
        #expect(json["loop_count"] as? Int == 0)
        #expect(json["orientation"] as? Int == 1)
        #expect(json["bits_per_component"] as? Int == fixture.bits)
        #expect(json["has_alpha"] as? Bool == fixture.alpha)
        #expect(json["pixel_format"] as? String == (fixture.bits > 8 ? "rgba16" : "rgba8"))
        let traits = try #require(json["traits"] as? [String])
        #expect(traits.contains("alpha") == fixture.alpha)
        #expect(traits.contains("interlaced") == fixture.name.hasSuffix("adam7"))
    }

    @Test("JSON has exactly the documented keys")
    func jsonKeys() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["info", Fixture.path("png/palette8-adam7.png"), "--json"], plugins: plugins)
        let json = try result.json()
        #expect(
            Set(json.keys) == [
                "format", "width", "height", "frames", "loop_count", "orientation", "bits_per_component", "has_alpha",
                "pixel_format", "traits",
            ])
        #expect(json["traits"] as? [String] == ["alpha", "interlaced", "indexed"])
    }

    @Test("text output for a PNG")
    func pngText() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(["info", Fixture.path("png/rgba16.png")], plugins: plugins)
        #expect(result.status == 0)
        #expect(
            result.outputLines == [
                "format:             png",
                "size:               13x7",
                "frames:             1",
                "loop count:         0",
                "orientation:        1 (up)",
                "pixel format:       rgba16",
                "alpha:              yes",
                "bits per component: 16",
                "traits:             alpha",
            ])
    }

    @Test("a JPEG with EXIF orientation 6: number and name, stored and shown size")
    func jpegOrientation() async throws {
        let plugins = try PluginsFolder.make()
        let file = Fixture.path("jpeg/orientation-6.jpg")
        let text = try await WebImageProcess.run(["info", file], plugins: plugins)
        #expect(text.status == 0)
        #expect(text.outputLines.contains("orientation:        6 (right)"))
        #expect(text.outputLines.contains("size:               61x43 (shown as 43x61)"))
        let json = try await WebImageProcess.run(["info", file, "--json"], plugins: plugins).json()
        #expect(json["format"] as? String == "jpeg")
        #expect(json["width"] as? Int == 61)
        #expect(json["height"] as? Int == 43)
        #expect(json["orientation"] as? Int == 6)
        #expect(json["has_alpha"] as? Bool == false)
        #expect(json["pixel_format"] as? String == "rgba8")
    }

    @Test("a JPEG cut inside its scan data still has a readable header")
    func truncatedScanStillDescribed() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["info", Fixture.path("jpeg/bad-truncated-progressive.jpg"), "--json"], plugins: plugins)
        #expect(result.status == 0)
        let json = try result.json()
        #expect(json["width"] as? Int == 61)
        #expect(json["traits"] as? [String] == ["progressive"])
    }

    @Test("a JPEG cut inside its header is one error line")
    func truncatedHeader() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["info", Fixture.path("jpeg/bad-truncated-header.jpg")], plugins: plugins)
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.errorLines == ["error: truncated JPEG: the file ends inside the JPEG header"])
    }

    @Test("a missing file is one error line")
    func missingFile() async throws {
        let plugins = try PluginsFolder.make()
        let missing = plugins.file("missing.png")
        let result = try await WebImageProcess.run(["info", missing], plugins: plugins)
        #expect(result.status == 1)
        #expect(result.errorLines == ["error: no such file: '\(missing)'"])
    }

    @Test("bytes no coder recognises are one error line")
    func unknownFormat() async throws {
        let plugins = try PluginsFolder.make()
        try plugins.write("hello.txt", "hello")
        let result = try await WebImageProcess.run(["info", plugins.file("hello.txt")], plugins: plugins)
        #expect(result.status == 1)
        #expect(result.errorLines == ["error: not an image the loaded coders decode (looks like text, 5 bytes)"])
    }
}
