/// Why an input file could not be read.
public enum InputFileError: Error, Equatable, CustomStringConvertible {
    /// Nothing exists at the path.
    case missing(path: String)
    /// The path names a folder.
    case folder(path: String)
    /// The path names something other than a regular file or a folder (a pipe, a device, a socket).
    case notRegularFile(path: String)
    /// The file exists but opening or reading it failed; `reason` is the system's message.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path): "no such file: '\(path)'"
        case .folder(let path): "'\(path)' is a folder, not a file"
        case .notRegularFile(let path): "'\(path)' is not a regular file"
        case .unreadable(let path, let reason): "cannot read '\(path)': \(reason)"
        }
    }
}
