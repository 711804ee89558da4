import FoundationEssentials
import Logging
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// Standard-error output and logging set-up shared by every command.
///
/// The tool captures its own descriptor 2 (``StandardErrorCapture``): what libraries inside
/// in-process plugins print there becomes `standard error: ...` log lines under the label
/// `webimage.stderr`, shown only with `--verbose`, and never between the tool's own
/// `error:` and `note:` lines, which go to the original standard error.
public enum Diagnostics {
    /// Where the tool's own messages and its log go: the original standard error.
    private static let output = TrackedMutex<Int32>(2)
    /// The capture of descriptor 2, once installed.
    private static let capture = TrackedMutex<StandardErrorCapture?>(nil)

    /// Captures descriptor 2 (when possible) and routes swift-log to the original standard
    /// error at warning level when `verbose`, and nowhere otherwise. Call once, before any
    /// logger is made.
    public static func bootstrapLogging(verbose: Bool) {
        let installed = try? StandardErrorCapture.install()
        let descriptor = installed?.originalDescriptor ?? 2
        output.withLock { $0 = descriptor }
        capture.withLock { $0 = installed }
        LoggingSystem.bootstrap { label in
            guard verbose else { return SwiftLogNoOpLogHandler() }
            var handler = StreamLogHandler(label: label, stream: DescriptorOutputStream(descriptor: descriptor))
            handler.logLevel = .warning
            return handler
        }
        installed?.startLogging(to: Logger(label: "webimage.stderr"))
    }

    /// True when the original standard error is a terminal (descriptor 2 itself is the
    /// capture's pipe once ``bootstrapLogging(verbose:)`` ran): whether progress bars show.
    public static var standardErrorIsTerminal: Bool {
        isatty(output.withLock { $0 }) != 0
    }

    /// Logs what libraries wrote to descriptor 2 so far and points descriptor 2 back at the
    /// original standard error: call before the process exits or is replaced.
    public static func restoreStandardError() {
        capture.withLock { $0 }?.restore()
    }

    /// Writes `error: <message>` as one line on standard error.
    public static func printError(_ message: String) {
        writeToStandardError("error: \(singleLine(message))\n")
    }

    /// Writes `warning: <message>` as one line on standard error.
    public static func printWarning(_ message: String) {
        writeToStandardError("warning: \(singleLine(message))\n")
    }

    /// Writes `note: <message>` as one line on standard error.
    public static func printNote(_ message: String) {
        writeToStandardError("note: \(singleLine(message))\n")
    }

    /// `text` with line breaks turned into spaces, so a message stays on one line.
    public static func singleLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// Writes `text` to the original standard error, after logging what libraries wrote so far.
    public static func writeToStandardError(_ text: String) {
        capture.withLock { $0 }?.flush()
        var stream = DescriptorOutputStream(descriptor: output.withLock { $0 })
        stream.write(text)
    }
}
