import Foundation

/// Paths of the repository and of what `swift build` produced next to this test binary.
enum BuildProducts {
    /// The repository's root folder.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The build folder (`.build/debug`): where the test binary and the plugin `.so` files are.
    static let directory: URL = {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("libWebImagePNG.so").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: executable).deletingLastPathComponent()
    }()

    /// The C header plugins compile against.
    static let pluginHeaderDirectory = repository.appendingPathComponent("Sources/CWebImagePlugin/include")

    /// A bundled plugin's library, for example `libWebImagePNG.so`.
    static func library(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// A bundled plugin's manifest, for example `png.json`.
    static func manifest(_ name: String) -> URL {
        repository.appendingPathComponent("plugin-manifests").appendingPathComponent(name)
    }

    /// A file under `Tests/Fixtures`.
    static func fixture(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: repository.appendingPathComponent("Tests/Fixtures").appendingPathComponent(path)))
    }
}
