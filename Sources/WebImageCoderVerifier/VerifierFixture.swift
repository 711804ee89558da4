/// One valid image file the verifier checks a coder against.
public struct VerifierFixture: Sendable {
    /// How failures name the file, for example `png/rgba8.png`.
    public var name: String
    /// The whole file.
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}
