import FoundationEssentials
import WebImageCLISupport
import WebImageCore

/// The format an output file is written in, chosen by its extension through the coders'
/// extension lists (the plugin manifests': `jpg` → jpeg, `apng` → png, `heics` → heic), and
/// checked to be writable before anything is read, downloaded or decoded. `convert` and
/// `get` choose through here.
enum OutputFormat {
    /// The format of `path`'s extension, which a coder encodes.
    /// - Throws: ``CLIError`` when `path` has no extension, no coder handles it, or its coder
    ///   cannot encode.
    static func choose(for path: String, coders: CodersManager) throws -> ImageFormat {
        let fileExtension = URL(fileURLWithPath: path).pathExtension
        guard !fileExtension.isEmpty else {
            throw CLIError("cannot choose an output format: '\(path)' has no file extension")
        }
        let format: ImageFormat
        do {
            format = try coders.coder(forFormat: fileExtension).format
        } catch {
            throw CLIError("unsupported output extension '.\(fileExtension)': \(error)")
        }
        guard format.capabilities.contains(.encode) else {
            throw CLIError("unsupported output extension '.\(fileExtension)': the \(format.name) coder cannot encode")
        }
        return format
    }
}
