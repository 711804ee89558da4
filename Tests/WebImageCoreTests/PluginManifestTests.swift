import Testing
import WebImageCore
import WebImageTestSupport

@Suite struct PluginManifestTests {
    @Test func readsEveryField() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write(
            "png.json",
            """
            { "name": "png", "version": "2.1.0", "abi_version": 1, "library": "libWebImagePNG.so",
              "kinds": ["coder"], "priority": 100, "summary": "PNG via libpng",
              "formats": [{ "name": "png", "mime_types": ["image/png", "image/apng"], "extensions": ["png"],
                            "signatures": ["89504e470d0a1a0a"], "capabilities": ["decode", "encode", "incremental"] }] }
            """)
        let manifest = try PluginManifest.load(from: path)
        #expect(manifest.name == "png")
        #expect(manifest.version == "2.1.0")
        #expect(manifest.abiVersion == 1)
        #expect(manifest.library == "libWebImagePNG.so")
        #expect(manifest.kinds == [.coder])
        #expect(manifest.priority == 100)
        #expect(manifest.summary == "PNG via libpng")
        #expect(manifest.formats.first?.mimeTypes == ["image/png", "image/apng"])
        #expect(manifest.formats.first?.capabilities == ["decode", "encode", "incremental"])
        #expect(manifest.signatures.map(\.description) == ["89504e470d0a1a0a"])
    }

    @Test func priorityDefaultsToZero() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write(
            "x.json",
            """
            { "name": "x", "version": "1", "abi_version": 1, "library": "libx.so", "kinds": ["coder"],
              "formats": [{ "name": "x", "mime_types": ["image/x"], "extensions": [], "signatures": [], "capabilities": [] }] }
            """)
        #expect(try PluginManifest.load(from: path).priority == 0)
    }

    @Test(arguments: [
        ("{ \"name\": ", "not valid JSON"),
        (
            "{ \"version\": \"1\", \"abi_version\": 1, \"library\": \"l.so\", \"kinds\": [\"coder\"] }",
            "missing field 'name'"
        ),
        (
            manifestJSON(name: "a").replacingOccurrences(of: "\"abi_version\": 1,", with: ""),
            "missing field 'abi_version'"
        ),
        (manifestJSON(name: "a", kinds: "[\"teleporter\"]"), "field 'kinds.[0]' is invalid"),
        (manifestJSON(name: "a", kinds: "[]"), "'kinds' is empty"),
        (manifestJSON(name: "a b"), "'name' must be letters"),
        (manifestJSON(name: "a").replacingOccurrences(of: "\"ffd8\"", with: "\"xyz\""), "invalid signature 'xyz'"),
        (
            manifestJSON(name: "a").replacingOccurrences(of: "[\"decode\"]", with: "[\"fly\"]"),
            "unknown capability 'fly'"
        ),
        (manifestJSON(name: "a").replacingOccurrences(of: "[\"image/x-a\"]", with: "[]"), "has no 'mime_types'"),
    ])
    func rejectsBrokenManifestsWithAReason(json: String, reason: String) throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("broken.json", json)
        let fault = try #require(throws: PluginFault.self) { try PluginManifest.load(from: path) }
        #expect(fault.reason == .invalidManifest)
        #expect(fault.file == path)
        #expect(fault.detail.contains(reason), "\(fault.detail)")
    }

    @Test func unreadableFileIsAFault() throws {
        let fault = try #require(throws: PluginFault.self) { try PluginManifest.load(from: "/nonexistent/x.json") }
        #expect(fault.reason == .manifestUnreadable)
    }
}
