/// Why an ``ImageURLSigner`` cannot be made: a key or salt that is not hexadecimal, or none.
public struct ImageURLSignerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line naming what is wrong, such as `the key has an odd number of hexadecimal digits (5)`.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
