import Foundation

/// Where the tests find the built `webimage` tool, the plugin libraries and the fixtures.
enum BuildProducts {
    /// The repository root, three levels above this file.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The plugin libraries `swift build` puts next to `webimage`.
    static let pluginLibraries = ["libWebImagePNG.so", "libWebImageJPEG.so"]

    /// Name and library of every manifest in `plugin-manifests/`, in the order the host lists
    /// them (by manifest file name).
    static var bundledPlugins: [(name: String, library: String)] {
        get throws {
            let folder = repositoryRoot.appendingPathComponent("plugin-manifests")
            return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
                .sorted().compactMap { file in
                    let data = try Data(contentsOf: folder.appendingPathComponent(file))
                    let fields = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                    guard let name = fields?["name"] as? String, let library = fields?["library"] as? String else {
                        return nil
                    }
                    return (name, library)
                }
        }
    }

    /// The build folder holding `webimage` and the plugin libraries, or nil when none is found.
    ///
    /// Walks up from the test bundle and the running executable (the tool is built into
    /// the same folder as the test bundle), then tries the usual scratch folders.
    static let directory: URL? = {
        var starts = [Bundle.main.bundleURL]
        if let first = CommandLine.arguments.first { starts.append(URL(fileURLWithPath: first)) }
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(URL(fileURLWithPath: executable))
        }
        for start in starts {
            var folder = start.standardizedFileURL
            while folder.path != "/" {
                if holdsProducts(folder) { return folder }
                folder.deleteLastPathComponent()
            }
        }
        let fallbacks = [".build-cli", ".build"].flatMap { scratch in
            ["debug", "release"].map { repositoryRoot.appendingPathComponent("\(scratch)/\($0)") }
        }
        return fallbacks.first(where: holdsProducts)
    }()

    /// The `webimage` executable.
    static var executable: URL {
        get throws {
            guard let directory else {
                throw HarnessError(
                    "no build folder with webimage and \(pluginLibraries) was found; run swift build first")
            }
            return directory.appendingPathComponent("webimage")
        }
    }

    /// A fixture under `Tests/Fixtures`, such as `png/rgba8.png`.
    static func fixture(_ relativePath: String) -> String {
        repositoryRoot.appendingPathComponent("Tests/Fixtures/\(relativePath)").path
    }

    private static func holdsProducts(_ folder: URL) -> Bool {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        let tool = folder.appendingPathComponent("webimage").path
        guard fileManager.fileExists(atPath: tool, isDirectory: &isDirectory), !isDirectory.boolValue,
            fileManager.isExecutableFile(atPath: tool)
        else { return false }
        return pluginLibraries.allSatisfy { fileManager.fileExists(atPath: folder.appendingPathComponent($0).path) }
    }
}

/// A failure of the test harness itself.
struct HarnessError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
