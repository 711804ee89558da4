/// Why decoding or encoding failed. `kind` is for code, `message` for people.
public struct ImageCodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for code. ``PluginStatus`` maps the plugin ABI's status codes onto these.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// An argument or option is out of range.
        case invalidArgument
        /// No coder handles these bytes, or the bytes are not in the coder's format.
        case unsupportedFormat
        /// The bytes are in the right format but corrupt.
        case corruptData
        /// The bytes end before the image is complete.
        case truncatedData
        /// The image has more pixels than the configured limit.
        case tooLarge
        /// Memory could not be allocated.
        case outOfMemory
        /// Incremental decoding has nothing to show yet.
        case needMoreData
        /// The coder does not provide this operation (for example encoding).
        case unsupportedOperation
        /// Any other failure inside a coder.
        case internalError
        /// The caller cancelled the operation before it finished.
        case cancelled
        /// The operation did not finish within its time limit.
        case timedOut
        /// The plugin's worker process died during the call (a signal, or an exit).
        case pluginCrashed
        /// The plugin was disabled after its worker died too often.
        case pluginDisabled
        /// The coder for these bytes could not be used: its plugin failed to open, or its
        /// worker process could not start or answer. Not a fault of the bytes.
        case pluginUnavailable
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
