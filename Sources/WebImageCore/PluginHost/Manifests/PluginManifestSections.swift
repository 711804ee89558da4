extension PluginManifest {
    /// One format a coder handles.
    public struct Format: Sendable, Equatable, Codable {
        /// Must equal the format name in the plugin's descriptor.
        public var name: String
        /// The first is the main MIME type and must equal the descriptor's.
        public var mimeTypes: [String]
        /// File extensions without the dot, lowercase.
        public var extensions: [String]
        /// Hex patterns of the first bytes, `??` for any byte (see ``MagicSignature``).
        public var signatures: [String]
        /// Manifest names of ``ImageFormat/Capabilities``.
        public var capabilities: [String]

        enum CodingKeys: String, CodingKey {
            case name, extensions, signatures, capabilities
            case mimeTypes = "mime_types"
        }
    }

    /// The `coder` section: what the host needs to choose a coder without opening it.
    public struct CoderSection: Sendable, Equatable, Codable {
        /// Higher wins when several coders match; default 0.
        public var priority: Int
        public var formats: [Format]

        public init(priority: Int = 0, formats: [Format]) {
            self.priority = priority
            self.formats = formats
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            priority = try container.decodeIfPresent(Int.self, forKey: .priority) ?? 0
            formats = try container.decode([Format].self, forKey: .formats)
        }
    }

    /// The `loader` section: the URL schemes the loader serves (`http`, `https`, `file`, ...).
    public struct LoaderSection: Sendable, Equatable, Codable {
        /// Lowercase scheme names without `:`.
        public var schemes: [String]
    }

    /// The `memory_cache` section; no fields yet (limits reach the plugin as configuration).
    public struct MemoryCacheSection: Sendable, Equatable, Codable {}

    /// The `disk_cache` section; no fields yet (limits reach the plugin as configuration).
    public struct DiskCacheSection: Sendable, Equatable, Codable {}

    /// The `transformer` section: the transformer names the plugin creates.
    public struct TransformerSection: Sendable, Equatable, Codable {
        public var names: [String]
    }
}
