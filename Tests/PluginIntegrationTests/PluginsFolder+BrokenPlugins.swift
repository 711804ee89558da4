import Foundation
import WebImageTestSupport

extension PluginsFolder {
    /// Writes a manifest for one of the plugins of `Fixtures/BrokenPlugins` (format `fixture`).
    func writeFixtureManifest(name: String, library: String, version: String = "1.0.0", abiVersion: Int = 1) throws {
        try write(
            "\(name).json",
            """
            { "name": "\(name)", "version": "\(version)", "abi_version": \(abiVersion), "library": "\(library)",
              "kinds": ["coder"], "priority": 0,
              "formats": [{ "name": "fixture", "mime_types": ["image/x-fixture"], "extensions": ["fixture"],
                            "signatures": ["46495854"], "capabilities": ["decode"] }] }
            """)
    }

    /// Compiles `Tests/PluginIntegrationTests/Fixtures/BrokenPlugins/<stem>.c` into `lib<stem>.so`.
    func compileFixture(_ stem: String) throws {
        let source = BuildProducts.repository.appendingPathComponent(
            "Tests/PluginIntegrationTests/Fixtures/BrokenPlugins/\(stem).c")
        try compile([source], into: "lib\(stem).so", extraFlags: ["-Wall", "-Wextra", "-Werror"])
    }
}
