import Foundation
import Testing
import WebImageTestSupport

@Suite("webimage plugins list")
struct PluginsListTests {
    @Test("text output shows both plugins with their manifest fields")
    func textListsBothPlugins() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(["plugins", "list"], plugins: plugins)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let lines = result.outputLines
        #expect(lines.first == "Search path:")
        #expect(lines.dropFirst().first == "  \(plugins.path)")
        for expected in [
            "jpeg 1.0.0  [coder; priority 100; ABI 1]",
            "  manifest: \(plugins.file("jpeg.json"))",
            "  library:  \(plugins.file("libWebImageJPEG.so"))",
            "  format jpeg",
            "    MIME types:   image/jpeg",
            "    extensions:   jpg, jpeg, jpe",
            "    signatures:   ffd8ff",
            "    capabilities: decode, encode, incremental, scaled-decode",
            "png 1.0.0  [coder; priority 100; ABI 1]",
            "  manifest: \(plugins.file("png.json"))",
            "  library:  \(plugins.file("libWebImagePNG.so"))",
            "    MIME types:   image/png",
            "    extensions:   png, apng",
            "    signatures:   89504e470d0a1a0a",
        ] {
            #expect(lines.contains(expected), "missing line: \(expected)")
        }
        #expect(!result.standardOutput.contains("Faults"))
    }

    @Test("JSON output has every manifest field, paths and no faults")
    func jsonListsBothPlugins() async throws {
        let plugins = try PluginsFolder.make()
        let result = try await WebImageProcess.run(["plugins", "list", "--json"], plugins: plugins)
        #expect(result.status == 0)
        let json = try result.json()
        #expect((json["search_path"] as? [String])?.first == plugins.path)
        #expect((json["faults"] as? [Any])?.isEmpty == true)
        let list = try #require(json["plugins"] as? [[String: Any]])
        #expect(list.map { $0["name"] as? String } == (try BuildProducts.bundledPlugins.map(\.name)))
        let png = try #require(list.first { $0["name"] as? String == "png" })
        #expect(png["version"] as? String == "1.0.0")
        #expect(png["abi_version"] as? Int == 1)
        #expect(png["kinds"] as? [String] == ["coder"])
        #expect(png["priority"] as? Int == 100)
        #expect(png["library"] as? String == plugins.file("libWebImagePNG.so"))
        #expect(png["manifest"] as? String == plugins.file("png.json"))
        #expect((png["summary"] as? String)?.hasPrefix("PNG through libpng") == true)
        let format = try #require((png["formats"] as? [[String: Any]])?.first)
        #expect(format["name"] as? String == "png")
        #expect(format["mime_types"] as? [String] == ["image/png"])
        #expect(format["extensions"] as? [String] == ["png", "apng"])
        #expect(format["signatures"] as? [String] == ["89504e470d0a1a0a"])
        #expect(
            format["capabilities"] as? [String] == [
                "decode", "encode", "incremental", "animation", "encode-animation", "scaled-decode",
            ])
        let jpeg = try #require(list.first { $0["name"] as? String == "jpeg" })
        let jpegFormat = try #require((jpeg["formats"] as? [[String: Any]])?.first)
        #expect(jpegFormat["extensions"] as? [String] == ["jpg", "jpeg", "jpe"])
    }

    @Test("each kind's section is shown, in text and JSON, without loading anything")
    func sectionsOfEveryKind() async throws {
        let folder = try PluginsFolder()
        try folder.write(
            "fleet.json",
            """
            {"name": "fleet", "version": "0.2.0", "abi_version": 1, "library": "libfleet.so",
             "loader": {"schemes": ["http", "https"]}, "disk_cache": {}, "transformer": {"names": ["sepia"]}}
            """)
        let text = try await WebImageProcess.run(["plugins", "list"], plugins: folder)
        #expect(text.status == 0)
        for expected in [
            "fleet 0.2.0  [loader, disk-cache, transformer; ABI 1]",
            "  loader schemes: http, https",
            "  disk cache",
            "  transformer names: sepia",
        ] {
            #expect(text.outputLines.contains(expected), "missing line: \(expected)")
        }
        let json = try await WebImageProcess.run(["plugins", "list", "--json"], plugins: folder).json()
        let fleet = try #require((json["plugins"] as? [[String: Any]])?.first)
        #expect(fleet["kinds"] as? [String] == ["loader", "disk-cache", "transformer"])
        #expect((fleet["loader"] as? [String: Any])?["schemes"] as? [String] == ["http", "https"])
        #expect((fleet["disk_cache"] as? [String: Any])?.isEmpty == true)
        #expect((fleet["transformer"] as? [String: Any])?["names"] as? [String] == ["sepia"])
        #expect(fleet["coder"] == nil && fleet["memory_cache"] == nil)
        #expect(fleet["priority"] as? Int == 0)
    }

    @Test("the coder section of a bundled plugin in JSON")
    func coderSectionInJSON() async throws {
        let plugins = try PluginsFolder.make()
        let json = try await WebImageProcess.run(["plugins", "list", "--json"], plugins: plugins).json()
        let png = try #require((json["plugins"] as? [[String: Any]])?.first { $0["name"] as? String == "png" })
        let coder = try #require(png["coder"] as? [String: Any])
        #expect(coder["priority"] as? Int == 100)
        #expect((coder["formats"] as? [[String: Any]])?.map { $0["name"] as? String } == ["png"])
    }

    @Test("a manifest naming a garbage library is listed without a fault: list never loads")
    func listDoesNotLoadLibraries() async throws {
        let junk = try PluginsFolder.makeWithGarbageLibrary()
        let result = try await WebImageProcess.run(["plugins", "list", "--json"], plugins: junk)
        #expect(result.status == 0)
        let json = try result.json()
        #expect((json["faults"] as? [Any])?.isEmpty == true)
        let list = try #require(json["plugins"] as? [[String: Any]])
        #expect(list.map { $0["name"] as? String } == ["junk"])
        #expect(list.first?["library"] as? String == junk.file("libJunk.so"))
    }

    @Test("manifest faults are listed with reason, file and detail")
    func manifestFaultsAreListed() async throws {
        let plugins = try PluginsFolder.make()
        try plugins.write("broken.json", "{ not json")
        let text = try await WebImageProcess.run(["plugins", "list"], plugins: plugins)
        #expect(text.status == 0)
        #expect(text.outputLines.contains("Faults (1):"))
        #expect(text.outputLines.contains("  invalid manifest: \(plugins.file("broken.json"))"))
        let json = try await WebImageProcess.run(["plugins", "list", "--json"], plugins: plugins).json()
        let fault = try #require((json["faults"] as? [[String: Any]])?.first)
        #expect(fault["reason"] as? String == "invalid manifest")
        #expect(fault["file"] as? String == plugins.file("broken.json"))
        #expect((fault["detail"] as? String)?.hasPrefix("not valid JSON") == true)
        #expect((json["plugins"] as? [Any])?.count == (try BuildProducts.bundledPlugins.count))
    }
}
