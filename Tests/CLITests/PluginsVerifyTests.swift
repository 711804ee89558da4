import Foundation
import Testing
import WebImageTestSupport

@Suite("webimage plugins verify")
struct PluginsVerifyTests {
    @Test("the built plugins load: each is ok and the exit status is 0")
    func builtPluginsAreOK() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(["plugins", "verify"], plugins: plugins)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let bundled = try BuildProducts.bundledPlugins
        #expect(
            result.outputLines
                == bundled.map { "ok    \($0.name) 1.0.0: \(plugins.file($0.library))" } + [
                    "\(bundled.count) ok, 0 faults"
                ])
    }

    @Test("JSON: ok is true and every plugin has status ok")
    func jsonReportsOK() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(["plugins", "verify", "--json"], plugins: plugins)
        #expect(result.status == 0)
        let json = try result.json()
        #expect(json["ok"] as? Bool == true)
        #expect((json["faults"] as? [Any])?.isEmpty == true)
        let list = try #require(json["plugins"] as? [[String: Any]])
        let bundled = try BuildProducts.bundledPlugins
        #expect(list.map { $0["name"] as? String } == bundled.map(\.name))
        #expect(list.map { $0["status"] as? String } == bundled.map { _ in "ok" })
    }

    @Test("a garbage library is 'not a shared object' and the exit status is 1")
    func garbageLibraryFails() async throws {
        let junk = try PluginsFolder.makeWithGarbageLibrary()
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(
            ["plugins", "verify", "--plugin-path", junk.path, "--plugin-path", plugins.path])
        #expect(result.status == 1)
        let lines = result.outputLines
        #expect(lines.first == "FAULT junk: not a shared object: \(junk.file("libJunk.so"))")
        #expect(lines.dropFirst().first == "        the file is not an ELF object (wrong magic bytes)")
        #expect(lines.contains("ok    png 1.0.0: \(plugins.file("libWebImagePNG.so"))"))
        #expect(lines.last == "\(try BuildProducts.bundledPlugins.count) ok, 1 fault")
    }

    @Test("JSON for a garbage library names the reason and the file")
    func garbageLibraryJSON() async throws {
        let junk = try PluginsFolder.makeWithGarbageLibrary()
        let result = try await WebImageProcess.run(["plugins", "verify", "--json"], plugins: junk)
        #expect(result.status == 1)
        let json = try result.json()
        #expect(json["ok"] as? Bool == false)
        let fault = try #require((json["faults"] as? [[String: Any]])?.first)
        #expect(fault["reason"] as? String == "not a shared object")
        #expect(fault["file"] as? String == junk.file("libJunk.so"))
        #expect(fault["plugin"] as? String == "junk")
        let plugin = try #require((json["plugins"] as? [[String: Any]])?.first)
        #expect(plugin["status"] as? String == "fault")
    }

    @Test(
        "a plugin library without a manifest is one warning in verify and list, and one stderr line in other commands")
    func libraryWithoutManifestIsAWarning() async throws {
        let plugins = try PluginsFolder.make()
        let stray = try PluginsFolder()
        try PluginsFolder.place(
            try BuildProducts.library("libWebImageGIF.so"), at: stray.url.appendingPathComponent("libWebImageGIF.so"))
        let library = stray.file("libWebImageGIF.so")
        let detail =
            "a plugin library that no manifest in \(stray.path) names; it is never opened "
            + "(write a manifest beside it, see docs/writing-a-plugin.md)"
        let verify = try await WebImageProcess.run(
            ["plugins", "verify", "--plugin-path", stray.path, "--plugin-path", plugins.path])
        #expect(verify.status == 0)
        let count = try BuildProducts.bundledPlugins.count
        #expect(
            verify.outputLines.suffix(3) == [
                "WARN  libWebImageGIF.so: \(detail)", "        library: \(library)", "\(count) ok, 0 faults, 1 warning",
            ])
        let list = try await WebImageProcess.run(
            ["plugins", "list", "--plugin-path", stray.path, "--plugin-path", plugins.path])
        #expect(list.status == 0)
        #expect(list.standardError == "")
        #expect(
            list.outputLines.suffix(3) == [
                "Warnings (1):", "  warning: libWebImageGIF.so: \(detail)", "    library: \(library)",
            ])
        let info = try await WebImageProcess.run(
            ["info", Fixture.path("png/rgb8.png"), "--plugin-path", stray.path, "--plugin-path", plugins.path])
        #expect(info.status == 0)
        #expect(info.standardError == "warning: \(library): \(detail)\n")
    }
}
