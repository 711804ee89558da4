import Foundation
import Logging

/// Standard-error output and logging set-up shared by every command.
public enum Diagnostics {
    /// Routes swift-log to standard error at warning level when `verbose`, and nowhere otherwise.
    /// Call once, before any logger is made.
    public static func bootstrapLogging(verbose: Bool) {
        LoggingSystem.bootstrap { label in
            guard verbose else { return SwiftLogNoOpLogHandler() }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
    }

    /// Writes `error: <message>` as one line on standard error.
    public static func printError(_ message: String) {
        writeToStandardError("error: \(singleLine(message))\n")
    }

    /// Writes `note: <message>` as one line on standard error.
    public static func printNote(_ message: String) {
        writeToStandardError("note: \(singleLine(message))\n")
    }

    /// `text` with line breaks turned into spaces, so a message stays on one line.
    public static func singleLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    private static func writeToStandardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
