import Foundation

/// The built `webimage` alone in a new folder of the build folder, as a hard link: none of
/// the executables it hands commands to (`webimage-bench`, `webimage-serve`) and no worker
/// beside it. The same file system, so linking works, and no test runs a copy still open for
/// writing (which fails with "Text file busy" while other tests start processes).
public struct LonelyExecutable {
    /// The new folder.
    public let folder: URL
    /// `webimage` in it.
    public let executable: URL

    public init() throws {
        let original = try BuildProducts.executable
        folder = original.deletingLastPathComponent().appendingPathComponent("cli-tests-\(UUID().uuidString)")
        executable = folder.appendingPathComponent("webimage")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try FileManager.default.linkItem(at: original, to: executable)
    }

    /// Removes the folder.
    public func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
