import Foundation

/// A file system a test mounts on a new folder of its own (tests run as root): a small tmpfs
/// that fills up, or a read-only view of another folder (`chmod` does not stop root). Unmounted
/// when released, before its folder is removed.
public final class MountedFolder: Sendable {
    private let folder: TemporaryDirectory

    /// Where the file system is mounted.
    public var path: String { folder.path }

    private init(_ folder: TemporaryDirectory, mount arguments: [String]...) throws {
        self.folder = folder
        for (index, command) in arguments.enumerated() {
            do {
                _ = try ChildProcess.output(of: "/usr/bin/mount", command)
            } catch {
                if index > 0 { _ = try? ChildProcess.output(of: "/usr/bin/umount", [folder.path]) }
                throw error
            }
        }
    }

    /// A tmpfs of `bytes` (rounded up to whole 4 KiB pages by the kernel).
    public static func tmpfs(bytes: Int) throws -> MountedFolder {
        let folder = try TemporaryDirectory()
        return try MountedFolder(folder, mount: ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", folder.path])
    }

    /// `source` seen read-only (a bind mount remounted `ro`): reads work, every write fails
    /// with `Read-only file system`.
    public static func readOnlyView(of source: String) throws -> MountedFolder {
        let folder = try TemporaryDirectory()
        return try MountedFolder(
            folder, mount: ["--bind", source, folder.path], ["-o", "remount,bind,ro", folder.path])
    }

    deinit { _ = try? ChildProcess.output(of: "/usr/bin/umount", [folder.path]) }
}
