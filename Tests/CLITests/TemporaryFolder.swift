import Foundation

/// A new empty folder under the system's temporary folder, removed by ``remove()``.
struct TemporaryFolder {
    let url: URL

    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `text` to `name` inside the folder.
    func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A plugins folder for the tests: copies of `plugin-manifests/*.json` and symbolic links
/// to the built plugin libraries.
enum PluginFolder {
    /// Fills `folder` with every bundled plugin: each manifest of `plugin-manifests/` and a
    /// link to the built library it names.
    static func install(in folder: TemporaryFolder) throws {
        let fileManager = FileManager.default
        let manifests = BuildProducts.repositoryRoot.appendingPathComponent("plugin-manifests")
        let products = try BuildProducts.executable.deletingLastPathComponent()
        for name in try fileManager.contentsOfDirectory(atPath: manifests.path) where name.hasSuffix(".json") {
            let manifest = manifests.appendingPathComponent(name)
            try fileManager.copyItem(at: manifest, to: folder.url.appendingPathComponent(name))
            let fields = try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any]
            guard let library = fields?["library"] as? String else { continue }
            try fileManager.createSymbolicLink(
                at: folder.url.appendingPathComponent(library),
                withDestinationURL: products.appendingPathComponent(library))
        }
    }

    /// A new folder with every bundled plugin.
    static func make() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try install(in: folder)
        return folder
    }

    /// A new folder with a plugin `junk` whose manifest names a text file as its library.
    static func makeWithGarbageLibrary() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            {"name": "junk", "version": "0.1.0", "abi_version": 1, "library": "libJunk.so", "kinds": ["coder"],
             "formats": [{"name": "junk", "mime_types": ["image/x-junk"], "extensions": ["junk"],
                          "signatures": ["4a554e4b"], "capabilities": ["decode"]}]}
            """, to: "junk.json")
        try folder.write("this is not a shared object\n", to: "libJunk.so")
        return folder
    }
}
