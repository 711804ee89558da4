import Foundation

/// A fresh folder under the system temporary folder, removed when released.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "webimage-disk-cache-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The names in `folder` (relative to this directory), sorted.
    func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path + "/" + folder).sorted()
    }
}
