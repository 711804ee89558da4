#if canImport(Glibc)
    import Glibc
#endif

/// What discovery checks on disk before it trusts or opens a plugin: where a file really is
/// (symbolic links resolved) and who could have written it.
enum PluginFileCheck {
    /// `path` with every symbolic link, `.` and `..` resolved (`realpath(3)`); nil when it
    /// does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// True when the real path `path` lies inside the real folder `folder`.
    static func lies(_ path: String, inside folder: String) -> Bool {
        path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// Why someone other than root and this process's user could change the file or folder at
    /// `path` (following links): "world-writable (mode 0777)", "group-writable (mode 0775)" or
    /// "owned by uid 1000 (mode 0755)"; nil when only they can, or when it does not exist.
    static func insecurity(of path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let permissions = status.st_mode & 0o7777
        let mode = "mode 0" + String(permissions, radix: 8)
        if permissions & 0o002 != 0 { return "world-writable (\(mode))" }
        if permissions & 0o020 != 0 { return "group-writable (\(mode))" }
        if status.st_uid != 0 && status.st_uid != geteuid() { return "owned by uid \(status.st_uid) (\(mode))" }
        return nil
    }
}
