/// An image format a coder handles, such as PNG.
public struct ImageFormat: Sendable, Hashable, CustomStringConvertible {
    /// What a coder can do with the format.
    public struct Capabilities: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let decode = Capabilities(rawValue: 1 << 0)
        public static let encode = Capabilities(rawValue: 1 << 1)
        /// Images can be shown while their bytes arrive.
        public static let incrementalDecode = Capabilities(rawValue: 1 << 2)
        public static let decodeAnimation = Capabilities(rawValue: 1 << 3)
        public static let encodeAnimation = Capabilities(rawValue: 1 << 4)
        /// Thumbnails cost less than a full decode (DCT scaling, row streaming).
        public static let scaleWhileDecoding = Capabilities(rawValue: 1 << 5)

        /// The names used in plugin manifests, in bit order.
        public static let manifestNames: [(String, Capabilities)] = [
            ("decode", .decode), ("encode", .encode), ("incremental", .incrementalDecode),
            ("animation", .decodeAnimation), ("encode-animation", .encodeAnimation),
            ("scaled-decode", .scaleWhileDecoding),
        ]

        /// Manifest names of the set bits, in bit order.
        public var names: [String] {
            Self.manifestNames.filter { contains($0.1) }.map(\.0)
        }
    }

    /// Short lowercase name, for example `png`; unique among loaded coders.
    public let name: String
    /// The main MIME type, for example `image/png`.
    public let mimeType: String
    public let capabilities: Capabilities

    public init(name: String, mimeType: String, capabilities: Capabilities) {
        self.name = name
        self.mimeType = mimeType
        self.capabilities = capabilities
    }

    public var description: String { name }
}
