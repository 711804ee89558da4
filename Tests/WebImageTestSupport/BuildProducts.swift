import Foundation

/// Where the tests find the repository and what `swift build` produced: the `webimage`
/// tool and the bundled plugin libraries.
public enum BuildProducts {
    /// The repository root, three levels above this file.
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The C header plugins compile against.
    public static let pluginHeaderDirectory = repository.appendingPathComponent("Sources/CWebImagePlugin/include")

    /// Libraries that mark a build folder (the plugins `swift build` puts next to `webimage`).
    static let markerLibraries = ["libWebImagePNG.so", "libWebImageJPEG.so"]

    /// The build folder holding the plugin libraries (and `webimage`), or nil when none is found.
    ///
    /// Walks up from the test bundle and the running executable (the products are built into
    /// the same folder as the test bundle), then tries `.build/debug` and `.build/release`.
    public static let directory: URL? = {
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
        let fallbacks = ["debug", "release"].map { repository.appendingPathComponent(".build/\($0)") }
        return fallbacks.first(where: holdsProducts)
    }()

    /// The build folder, or a ``HarnessError`` saying to build first.
    public static var requiredDirectory: URL {
        get throws {
            guard let directory else {
                throw HarnessError("no build folder with \(markerLibraries) was found; run swift build first")
            }
            return directory
        }
    }

    /// The `webimage` executable.
    public static var executable: URL {
        get throws { try requiredDirectory.appendingPathComponent("webimage") }
    }

    /// The `webimage-bench` executable (the toolkit's benchmarks).
    public static var benchExecutable: URL {
        get throws { try requiredDirectory.appendingPathComponent("webimage-bench") }
    }

    /// The `webimage-serve` executable (`webimage serve` and `webimage sign`).
    public static var serveExecutable: URL {
        get throws { try requiredDirectory.appendingPathComponent("webimage-serve") }
    }

    /// A built plugin library, for example `libWebImagePNG.so`.
    public static func library(_ name: String) throws -> URL {
        try requiredDirectory.appendingPathComponent(name)
    }

    /// A bundled plugin's manifest in `plugin-manifests/`, for example `png.json`.
    public static func manifest(_ name: String) -> URL {
        repository.appendingPathComponent("plugin-manifests").appendingPathComponent(name)
    }

    /// Manifest file, name and library of every manifest in `plugin-manifests/`, in the
    /// order the host lists them (by manifest file name).
    public static var bundledPlugins: [(manifest: String, name: String, library: String)] {
        get throws {
            let folder = repository.appendingPathComponent("plugin-manifests")
            return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
                .sorted().compactMap { file in
                    let data = try Data(contentsOf: folder.appendingPathComponent(file))
                    let fields = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                    guard let name = fields?["name"] as? String, let library = fields?["library"] as? String else {
                        return nil
                    }
                    return (file, name, library)
                }
        }
    }

    private static func holdsProducts(_ folder: URL) -> Bool {
        markerLibraries.allSatisfy { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
    }
}
