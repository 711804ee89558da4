import Foundation

/// A fresh folder under the system temporary folder, removed when released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "webimage-core-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Creates `name` (folders included) with `contents` and returns its path.
    @discardableResult
    func write(_ name: String, _ contents: String) throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try contents.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Creates the folder `name` and returns its path.
    func folder(_ name: String) throws -> String {
        let folder = path + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// A manifest's JSON text with the given fields (and sensible coder defaults).
func manifestJSON(
    name: String, version: String = "1.0.0", abiVersion: Int = 1, library: String? = nil, kinds: String = "[\"coder\"]",
    priority: Int = 0, format: String? = nil
) -> String {
    let formatName = format ?? name
    return """
        { "name": "\(name)", "version": "\(version)", "abi_version": \(abiVersion),
          "library": "\(library ?? "lib\(name).so")", "kinds": \(kinds), "priority": \(priority),
          "formats": [{ "name": "\(formatName)", "mime_types": ["image/x-\(formatName)"],
                        "extensions": ["\(formatName)"], "signatures": ["ffd8"], "capabilities": ["decode"] }] }
        """
}
