/// Why a request path is not a processing request the server can answer; the server sends
/// ``message`` as the one-line body of a 400.
public struct ProcessingURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What part of the path is at fault.
    public enum Kind: Sendable, Equatable {
        /// The path's shape: no signature, no source, an empty segment.
        case malformedPath
        /// An option name that is neither imgproxy's, a built-in transformer's nor a plugin's.
        case unknownOption
        /// An option whose arguments are not what it takes.
        case invalidArgument
        /// A preset that the configuration does not define, or a bad preset in it.
        case unknownPreset
        /// An option other than a preset while only presets are allowed.
        case presetsOnly
        /// A source that does not decode, is not a URL, or not http or https.
        case invalidSource
        /// Options that parse but that the toolkit cannot carry out yet.
        case unsupported
    }

    public let kind: Kind
    /// One line saying what is wrong, such as `unknown option 'foo:1'`.
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
