import Foundation
import WebImageCLISupport

/// A folder that `fetch -o DIR` and `get --output-dir DIR` write one file per URL into, and
/// the names of those files: made from the URL's raw (still percent-encoded) last path
/// segment, so no name holds `/`, `.` or `..` alone, NUL or a control character; never a file
/// that was there before the run, nor one given earlier in the run (both get `-2`, `-3`...
/// before the extension); always directly inside the folder's real path.
struct OutputFolder {
    /// The longest name made from a URL, in UTF-8 bytes: 200, which leaves room for a suffix
    /// and an extension under the 255 bytes of a file name.
    static let maximumNameBytes = 200
    /// The name of a URL without a usable last path segment (`http://h/`, `data:`): `index`.
    static let fallbackName = "index"

    /// The folder as given: the files' paths start with it.
    let path: String
    /// The folder's real path (symbolic links resolved), which every file's real folder is.
    let realPath: String
    private var names = UniqueFileNames()

    /// Opens the folder at `path`, creating it and any missing parent first (mode 0755, as
    /// `mkdir -p`, `curl --create-dirs` and `wget -P` do).
    /// - Throws: ``CLIError`` when `path` cannot be created or is not a folder.
    init(_ path: String) throws {
        try Self.create(path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
            let real = realpath(path, nil)
        else { throw CLIError("\(path) is not a folder") }
        defer { free(real) }
        self.path = path
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

    /// The file for `url`: its ``fileName(for:)``, with `fileExtension` (without dot) when
    /// given and the name does not end in it already, made unique in the run and the folder.
    /// - Throws: ``CLIError`` if the file would not lie directly in the folder (never expected).
    mutating func claim(for url: String, fileExtension: String? = nil) throws -> URL {
        var name = Self.fileName(for: url)
        if let fileExtension, (name as NSString).pathExtension.lowercased() != fileExtension.lowercased() {
            name += "." + fileExtension
        }
        let folder = URL(fileURLWithPath: realPath, isDirectory: true)
        // `isDirectory: false` throughout: without it, Foundation asks the file system.
        let claimed = names.claim(
            name, suffixed: { Self.suffixed(name, $0) },
            isTaken: { candidate in
                var status = stat()
                return lstat(folder.appendingPathComponent(candidate, isDirectory: false).path, &status) == 0
            })
        // The name has no `/` and is neither `.` nor `..`: the file is directly in the folder.
        guard
            folder.appendingPathComponent(claimed, isDirectory: false).standardized.deletingLastPathComponent().path
                == folder.path
        else { throw CLIError("\(claimed) would leave \(path)") }
        return URL(fileURLWithPath: path, isDirectory: true).appendingPathComponent(claimed, isDirectory: false)
    }

    /// A safe file name from the URL's raw last path segment (query and fragment dropped;
    /// nothing percent-decoded): letters, digits, `.`, `_` and `-` kept, every other character
    /// (`%`, `/`, controls, spaces...) becomes `_`; cut to ``maximumNameBytes`` on a character
    /// boundary; ``fallbackName`` when nothing or only dots remain, or the URL has no path.
    static func fileName(for url: String) -> String {
        var path = Substring(url)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        guard let scheme = path.range(of: "://") else { return fallbackName }  // data: and other opaque URLs
        let components = path[scheme.upperBound...].split(separator: "/")
        let last = components.count > 1 ? components.last! : ""
        var name = ""
        for character in last {
            let kept = character.isLetter || character.isNumber || "._-".contains(character)
            let safe = kept && character.unicodeScalars.allSatisfy { !$0.properties.isDefaultIgnorableCodePoint }
            let next = safe ? String(character) : "_"
            guard name.utf8.count + next.utf8.count <= maximumNameBytes else { break }
            name += next
        }
        return name.isEmpty || name.allSatisfy({ $0 == "." }) ? fallbackName : name
    }

    /// `name` with `-suffix` before its extension (`photo.png` → `photo-2.png`).
    private static func suffixed(_ name: String, _ suffix: Int) -> String {
        let stem = (name as NSString).deletingPathExtension
        let pathExtension = (name as NSString).pathExtension
        return pathExtension.isEmpty || stem.isEmpty ? "\(name)-\(suffix)" : "\(stem)-\(suffix).\(pathExtension)"
    }
}
