/// Why a cache operation failed. `kind` is for code, `message` for people. A miss is not an
/// error: lookups return nil.
public struct CacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for code. ``PluginStatus/cacheErrorKind`` maps the ABI's statuses onto these.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// An option, key or value is invalid (an unknown option, a bad limit).
        case invalidArgument
        /// The entry is larger than the cache accepts.
        case tooLarge
        /// Reading or writing files or the network failed.
        case ioError
        /// The backend did not answer within its time limit.
        case timedOut
        /// Memory could not be allocated.
        case outOfMemory
        /// The backend does not provide this operation (for example a path for a Redis entry).
        case unsupportedOperation
        /// The caller cancelled the operation.
        case cancelled
        /// Any other failure inside the backend.
        case internalError
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
