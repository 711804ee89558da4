import Foundation

/// A new empty folder under the system's temporary folder, removed with everything in it
/// when the last reference goes away.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    /// The folder's file system path.
    public var path: String { url.path }

    /// Creates `<temporary folder>/webimage-tests-<UUID>`.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the folder (the file need not exist).
    public func file(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `contents` as UTF-8 to `name` (creating the folders it names) and returns its path.
    @discardableResult
    public func write(_ name: String, _ contents: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file)
        return file.path
    }

    /// Writes the script `contents` to `name` as an executable (mode 0755) and returns its path.
    ///
    /// The file is written by `/usr/bin/install` from a copy beside it, never opened for writing
    /// in the test process: a process forked by another test while this one held the file open
    /// would keep a writable descriptor to it until it executes, and running the script then
    /// fails with "Text file busy" (ETXTBSY).
    @discardableResult
    public func writeExecutable(_ name: String, _ contents: String) throws -> String {
        let source = try write(name + ".source", contents)
        let file = url.appendingPathComponent(name).path
        _ = try ChildProcess.output(of: "/usr/bin/install", ["-m", "755", source, file])
        return file
    }

    /// Creates the folder `name` (and the folders above it) and returns its path.
    @discardableResult
    public func folder(_ name: String) throws -> String {
        let folder = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }

    /// The names in the folder `name` inside this one, sorted.
    public func names(in name: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(name).path).sorted()
    }

    /// The bytes of the file `name` inside the folder.
    public func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url.appendingPathComponent(name)))
    }

    /// Writes `bytes` to `name` (creating the folders it names) and returns its path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return file.path
    }
}
