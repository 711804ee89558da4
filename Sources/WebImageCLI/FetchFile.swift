import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a downloaded body straight from its array to a new file (no intermediate copy).
enum FetchFile {
    struct WriteError: Error, CustomStringConvertible {
        let description: String
    }

    /// Renames `source` to `destination`, which must not exist (an existing file is never
    /// replaced): one `renameat2` with `RENAME_NOREPLACE`, or where the file system lacks it,
    /// a hard link then the source's removal. (`FileManager.moveItem` checked both paths
    /// with three `stat` calls first.)
    static func move(_ source: String, toNew destination: String) throws {
        if let renameWithoutReplacing {
            let noReplace: UInt32 = 1  // RENAME_NOREPLACE
            if renameWithoutReplacing(AT_FDCWD, source, AT_FDCWD, destination, noReplace) == 0 {
                return
            }
            guard errno == EINVAL || errno == ENOSYS else {
                throw WriteError(description: String(cString: strerror(errno)))
            }
        }
        guard link(source, destination) == 0 else {
            throw WriteError(description: String(cString: strerror(errno)))
        }
        unlink(source)
    }

    /// glibc's `renameat2` (not in the Glibc module, which leaves out `_GNU_SOURCE`
    /// declarations), found by name; nil before glibc 2.28.
    private static let renameWithoutReplacing:
        (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? = dlsym(
            nil, "renameat2"
        ).map {
            unsafeBitCast(
                $0,
                to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
        }

    /// Creates `path` (it must not exist) and writes `bytes` to it.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(description: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw WriteError(description: String(cString: strerror(errno)))
                }
                offset += written
            }
        }
    }
}
