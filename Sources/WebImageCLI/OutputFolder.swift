import FoundationEssentials
import WebImageCLISupport

#if canImport(Glibc)
    import Glibc
#endif

/// A folder that `fetch -o DIR` and `get --output-dir DIR` write one file per URL into, and
/// the names of those files: made from the URL's raw (still percent-encoded) last path
/// segment, so no name holds `/`, `.` or `..` alone, NUL or a control character; never a file
/// that was there before the run, nor one given earlier in the run (both get `-2`, `-3`...
/// before the extension); always directly inside the folder's real path.
struct OutputFolder {
    /// A file claimed in the folder: its name and the folder's path as the files' paths
    /// start with it.
    struct File: Sendable {
        /// The folder as ``OutputFolder/filesPath`` gives it.
        let folder: String
        /// The file's name: no `/`, neither `.` nor `..`.
        let name: String
        /// The file's path: `folder/name`.
        var path: String { folder.hasSuffix("/") ? folder + name : folder + "/" + name }
    }

    /// The folder as given: the files' paths start with it.
    let path: String
    /// The folder as the files' paths start with it: ``path`` made absolute against the
    /// current folder (symbolic links kept), without a trailing `/`.
    let filesPath: String
    /// The folder's real path (symbolic links resolved), which every file's real folder is.
    let realPath: String
    private var names = UniqueFileNames()

    /// Opens the folder at `path`, creating it and any missing parent first (mode 0755, as
    /// `mkdir -p`, `curl --create-dirs` and `wget -P` do).
    /// - Throws: ``CLIError`` when `path` cannot be created or is not a folder.
    init(_ path: String) throws {
        try Self.create(path)
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder,
            let real = realpath(path, nil)
        else { throw CLIError("\(path) is not a folder") }
        defer { free(real) }
        self.path = path
        filesPath = URL(fileURLWithPath: path, isDirectory: true).path
        realPath = String(cString: real)
    }

    /// Creates `path` and its missing parents, one `mkdir` each; an existing entry is left
    /// to ``init(_:)``'s check.
    /// - Throws: ``CLIError`` naming the part that could not be created and why.
    private static func create(_ path: String) throws {
        var partial = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            partial += (partial.isEmpty || partial.hasSuffix("/") ? "" : "/") + component
            guard mkdir(partial, 0o755) != 0 else { continue }
            let failure = errno
            guard failure != EEXIST else { continue }
            throw CLIError("cannot create the folder \(path): \(partial): \(String(cString: strerror(failure)))")
        }
    }

    /// The file for `url`: its name (``URLFileName``), with `fileExtension` (without dot) when
    /// given and the name does not end in it already, made unique in the run and the folder.
    /// Paths are joined as strings: Foundation's `URL` path operations cost more than the
    /// download of a small file (`fetch` claims one file per URL).
    /// - Throws: ``CLIError`` if the file would not lie directly in the folder (never expected).
    mutating func claim(for url: String, fileExtension: String? = nil) throws -> File {
        var name = URLFileName.name(for: url)
        if let fileExtension, Self.pathExtension(of: name).lowercased() != fileExtension.lowercased() {
            name += "." + fileExtension
        }
        let realFolder = realPath.hasSuffix("/") ? realPath : realPath + "/"
        let claimed = names.claim(
            name, suffixed: { Self.suffixed(name, $0) },
            isTaken: { candidate in
                var status = stat()
                return lstat(realFolder + candidate, &status) == 0
            })
        // A name without `/` that is neither `.` nor `..` is a file directly in the folder.
        guard !claimed.isEmpty, claimed != ".", claimed != "..", !claimed.utf8.contains(UInt8(ascii: "/")) else {
            throw CLIError("\(claimed) would leave \(path)")
        }
        return File(folder: filesPath, name: claimed)
    }

    /// `name` with `-suffix` before its extension (`photo.png` → `photo-2.png`).
    private static func suffixed(_ name: String, _ suffix: Int) -> String {
        let pathExtension = Self.pathExtension(of: name)
        let stem = pathExtension.isEmpty ? name : String(name.dropLast(pathExtension.count + 1))
        return pathExtension.isEmpty || stem.isEmpty ? "\(name)-\(suffix)" : "\(stem)-\(suffix).\(pathExtension)"
    }

    /// The extension of a file name (no `/`), as `NSString.pathExtension` gives it: what
    /// follows the last `.` unless that `.` starts the name: `png` for `photo.png`, "" for
    /// `photo`, `.hidden` and `photo.`.
    static func pathExtension(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }
}
