/// Why a transformer could not be made or could not run. `kind` is for code, `message` for people.
public struct ImageTransformError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// A parameter is out of range: a negative size, an empty crop, a non-finite angle.
        case invalidParameter
        /// No transformer has the requested name.
        case unknownTransformer
        /// The output would have more pixels than a transformer may allocate.
        case tooLarge
        /// Memory for the output could not be allocated.
        case outOfMemory
        /// Any other failure inside a transformer (for example one provided by a plugin).
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
