import Testing
import WebImageTestSupport

@Suite("webimage plugins conform")
struct PluginsConformTests {
    @Test("the bundled png plugin passes every check with a PNG: exit status 0")
    func bundledPNGConforms() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["plugins", "conform", "png", Fixture.path("png/rgba8.png")], plugins: plugins)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        // Sniffing, probe, decode, agreement, pixel limit, 3 incremental, animation, thumbnail, round trip,
        // truncation, noise; then the two hostile PNG headers (2147483647x135, 1000000x1000000).
        #expect(result.outputLines == ["png: 15 checks on 1 file, 0 failures, 0 skipped"])
    }

    @Test("JSON: the report with no failures")
    func jsonReport() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["plugins", "conform", "jpeg", Fixture.path("jpeg/baseline.jpg"), "--json"], plugins: plugins)
        #expect(result.status == 0)
        let json = try result.json()
        #expect(json["formats"] as? [String] == ["jpeg"])
        #expect((json["failures"] as? [Any])?.isEmpty == true)
        #expect((json["skipped"] as? [Any])?.isEmpty == true)
        #expect(json["checksRun"] as? Int == 12)
    }

    @Test("a file the plugin cannot read fails sniffing, probe and decode: exit status 1")
    func foreignFileFails() async throws {
        let plugins = try PluginsFolder.make()
        let file = Fixture.path("png/rgba8.png")
        let result = try await WebImageProcess.run(["plugins", "conform", "jpeg", file], plugins: plugins)
        #expect(result.status == 1)
        #expect(
            result.outputLines == [
                "FAIL \(file): sniffing: canDecode is false for the whole file",
                "FAIL \(file): probe: probe threw .unsupportedFormat (WEBIMAGE_STATUS_UNSUPPORTED_FORMAT): "
                    + "not a JPEG file (no SOI marker)",
                "FAIL \(file): decode: decode threw .unsupportedFormat (WEBIMAGE_STATUS_UNSUPPORTED_FORMAT): "
                    + "not a JPEG file (no SOI marker)",
                "jpeg: 3 checks on 1 file, 3 failures, 0 skipped",
            ])
    }

    @Test("a missing plugin is one error line and exit status 1")
    func missingPluginFails() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["plugins", "conform", "nope", Fixture.path("png/rgba8.png")], plugins: plugins)
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("error: no plugin named 'nope' (searched: \(plugins.path)") == true)
    }
}
