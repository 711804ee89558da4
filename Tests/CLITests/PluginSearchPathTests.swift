import Foundation
import Testing
import WebImageTestSupport

@Suite("plugin search path")
struct PluginSearchPathTests {
    @Test("WEBIMAGE_PLUGIN_PATH is searched when no --plugin-path is given")
    func environmentVariable() async throws {
        let plugins = try PluginsFolder.make()
        let environment = ["WEBIMAGE_PLUGIN_PATH": plugins.path]
        let list = try await WebImageProcess.run(["plugins", "list", "--json"], environment: environment)
        #expect(list.status == 0)
        let json = try list.json()
        #expect((json["search_path"] as? [String])?.first == plugins.path)
        #expect(
            (json["plugins"] as? [[String: Any]])?.map { $0["name"] as? String }
                == (try BuildProducts.bundledPlugins.map(\.name)))
        let info = try await WebImageProcess.run(
            ["info", Fixture.path("png/rgb8.png"), "--json"], environment: environment)
        #expect(info.status == 0)
        #expect(try info.json()["format"] as? String == "png")
    }

    @Test("--plugin-path folders come before WEBIMAGE_PLUGIN_PATH folders")
    func optionBeforeEnvironment() async throws {
        let plugins = try PluginsFolder.make()
        let junk = try PluginsFolder.makeWithGarbageLibrary()
        let result = try await WebImageProcess.run(
            ["plugins", "list", "--json", "--plugin-path", junk.path],
            environment: ["WEBIMAGE_PLUGIN_PATH": plugins.path])
        let json = try result.json()
        #expect((json["search_path"] as? [String])?.prefix(2) == [junk.path, plugins.path])
        #expect(
            (json["plugins"] as? [[String: Any]])?.map { $0["name"] as? String } == ["junk"]
                + (try BuildProducts.bundledPlugins.map(\.name)))
    }

    @Test("without any plugins folder nothing decodes")
    func noPlugins() async throws {
        let result = try await WebImageProcess.run(["info", Fixture.path("png/rgb8.png")])
        #expect(result.status == 1)
        #expect(result.errorLines.first?.hasPrefix("error: not an image the loaded coders decode") == true)
    }
}
