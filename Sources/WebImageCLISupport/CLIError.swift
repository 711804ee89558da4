import FoundationEssentials
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// A failure about the command's input, shown as one `error: ...` line.
public struct CLIError: Error, CustomStringConvertible {
    /// The exit status of every reported failure.
    public static let failureStatus: Int32 = 1

    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// The one-line message for errors the tool reports itself, or nil for errors that
    /// ArgumentParser should handle (usage mistakes, help, exit codes).
    public static func message(for error: any Error) -> String? {
        let text: String
        switch error {
        case let error as CLIError: text = error.message
        case let error as InputFileError: text = error.description
        case let error as ImageCodingError: text = error.message
        case let error as PluginFault: text = error.description
        case let error as CacheError: text = error.message
        default: return nil
        }
        return Diagnostics.singleLine(text)
    }

    /// Why a file could not be read or written, from what `Data` or `FileManager` threw: the
    /// system's text for the error number under it ("No such file or directory"), else the
    /// error itself.
    public static func reason(for error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.underlying as? POSIXError {
            return String(cString: strerror(underlying.code.rawValue))
        }
        return "\(error)"
    }
}
