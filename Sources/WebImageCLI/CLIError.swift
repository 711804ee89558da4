import WebImageCore

/// A failure about the command's input, shown as one `error: ...` line.
struct CLIError: Error, CustomStringConvertible {
    /// The exit status of every reported failure.
    static let failureStatus: Int32 = 1

    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }

    /// The one-line message for errors the tool reports itself, or nil for errors that
    /// ArgumentParser should handle (usage mistakes, help, exit codes).
    static func message(for error: any Error) -> String? {
        let text: String
        switch error {
        case let error as CLIError: text = error.message
        case let error as ImageCodingError: text = error.message
        case let error as PluginFault: text = error.description
        default: return nil
        }
        return Diagnostics.singleLine(text)
    }
}
