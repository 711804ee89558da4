import Foundation
import Testing
import WebImageTestSupport

@Suite("webimage plugins inspect")
struct PluginsInspectTests {
    @Test("text shows the manifest, then the loaded descriptor")
    func textShowsDescriptor() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(["plugins", "inspect", "jpeg"], plugins: plugins)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let lines = result.outputLines
        #expect(lines.first == "jpeg 1.0.0  [coder; priority 100; ABI 1]")
        #expect(lines.contains("  library:  \(plugins.file("libWebImageJPEG.so"))"))
        let descriptor = try #require(lines.firstIndex(of: "descriptor (loaded)"))
        #expect(
            Array(lines[(descriptor + 1)...]) == [
                "  ABI version: 1",
                "  name:        jpeg",
                "  version:     1.0.0",
                "  kinds:       coder",
                "  thread-safe: yes",
                "  coder format jpeg (image/jpeg): decode, encode, incremental, scaled-decode",
            ])
    }

    @Test("JSON has the manifest and the descriptor fields")
    func jsonShowsDescriptor() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(["plugins", "inspect", "png", "--json"], plugins: plugins)
        #expect(result.status == 0)
        let json = try result.json()
        #expect(json["fault"] == nil)
        let manifest = try #require(json["manifest"] as? [String: Any])
        #expect(manifest["name"] as? String == "png")
        #expect(manifest["manifest"] as? String == plugins.file("png.json"))
        let descriptor = try #require(json["descriptor"] as? [String: Any])
        #expect(descriptor["abi_version"] as? Int == 1)
        #expect(descriptor["name"] as? String == "png")
        #expect(descriptor["version"] as? String == "1.0.0")
        #expect(descriptor["kinds"] as? [String] == ["coder"])
        #expect(descriptor["thread_safe"] as? Bool == true)
        let format = try #require((descriptor["formats"] as? [[String: Any]])?.first)
        #expect(format["name"] as? String == "png")
        #expect(format["mime_type"] as? String == "image/png")
        #expect(
            format["capabilities"] as? [String] == [
                "decode", "encode", "incremental", "animation", "encode-animation", "scaled-decode",
            ])
    }

    @Test("an unknown name is one error line naming the searched folders, exit status 1")
    func unknownName() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(["plugins", "inspect", "nope"], plugins: plugins)
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.errorLines.count == 1)
        let line = try #require(result.errorLines.first)
        #expect(line.hasPrefix("error: no plugin named 'nope' (searched: \(plugins.path), "))
        #expect(line.hasSuffix("/lib/webimage/plugins)"))
    }

    @Test("a plugin that fails to load: manifest shown, the fault as the error line, exit status 1")
    func loadFault() async throws {
        let junk = try PluginsFolder.makeWithGarbageLibrary()
        let result = try await WebImageProcess.run(["plugins", "inspect", "junk"], plugins: junk)
        #expect(result.status == 1)
        #expect(result.outputLines.first == "junk 0.1.0  [coder; priority 0; ABI 1]")
        #expect(!result.outputLines.contains("descriptor (loaded)"))
        #expect(
            result.errorLines == [
                "error: \(junk.file("libJunk.so")): not a shared object (plugin 'junk'): "
                    + "the file is not an ELF object (wrong magic bytes)"
            ])
    }
}
