import Foundation

/// A plugin's manifest: everything the host knows about a plugin without opening it.
///
/// Stored as `<name>.json` next to the library, for example:
/// ```json
/// { "name": "png", "version": "1.0.0", "abi_version": 1, "library": "libWebImagePNG.so",
///   "kinds": ["coder"], "priority": 100,
///   "formats": [{ "name": "png", "mime_types": ["image/png"], "extensions": ["png"],
///                 "signatures": ["89504e470d0a1a0a"], "capabilities": ["decode", "encode"] }] }
/// ```
public struct PluginManifest: Sendable, Equatable, Codable {
    /// One format the plugin handles.
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

    public var name: String
    public var version: String
    public var abiVersion: UInt32
    /// The shared object, relative to the manifest's folder (or absolute).
    public var library: String
    public var kinds: [PluginKind]
    /// Higher wins when several coders match; default 0.
    public var priority: Int
    public var formats: [Format]
    /// One line for people; optional.
    public var summary: String?

    enum CodingKeys: String, CodingKey {
        case name, version, library, kinds, priority, formats, summary
        case abiVersion = "abi_version"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        version = try container.decode(String.self, forKey: .version)
        abiVersion = try container.decode(UInt32.self, forKey: .abiVersion)
        library = try container.decode(String.self, forKey: .library)
        kinds = try container.decode([PluginKind].self, forKey: .kinds)
        priority = try container.decodeIfPresent(Int.self, forKey: .priority) ?? 0
        formats = try container.decodeIfPresent([Format].self, forKey: .formats) ?? []
        summary = try container.decodeIfPresent(String.self, forKey: .summary)
    }

    /// The magic signatures of every format.
    public var signatures: [MagicSignature] {
        formats.flatMap { $0.signatures.compactMap(MagicSignature.init(pattern:)) }
    }

    /// Reads and checks a manifest file.
    /// - Throws: ``PluginFault`` `.manifestUnreadable` or `.invalidManifest`.
    public static func load(from path: String) throws(PluginFault) -> PluginManifest {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PluginFault(.manifestUnreadable, file: path, detail: "cannot read the file")
        }
        let manifest: PluginManifest
        do {
            manifest = try JSONDecoder().decode(PluginManifest.self, from: data)
        } catch let error as DecodingError {
            throw PluginFault(.invalidManifest, file: path, detail: Self.explain(error))
        } catch {
            throw PluginFault(.invalidManifest, file: path, detail: "\(error)")
        }
        try manifest.validate(path: path)
        return manifest
    }

    private func validate(path: String) throws(PluginFault) {
        func fail(_ detail: String) -> PluginFault {
            PluginFault(.invalidManifest, file: path, plugin: name, detail: detail)
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
        else { throw fail("'name' must be letters, digits, '-', '_' or '.'") }
        guard !version.isEmpty else { throw fail("'version' is empty") }
        guard !library.isEmpty else { throw fail("'library' is empty") }
        guard !kinds.isEmpty else { throw fail("'kinds' is empty") }
        if kinds.contains(.coder) && formats.isEmpty { throw fail("a coder must list at least one format") }
        for format in formats {
            guard !format.name.isEmpty else { throw fail("a format has an empty name") }
            guard !format.mimeTypes.isEmpty else { throw fail("format '\(format.name)' has no 'mime_types'") }
            for pattern in format.signatures where MagicSignature(pattern: pattern) == nil {
                throw fail("format '\(format.name)' has an invalid signature '\(pattern)'")
            }
            let known = Set(ImageFormat.Capabilities.manifestNames.map(\.0))
            for capability in format.capabilities where !known.contains(capability) {
                throw fail("format '\(format.name)' has an unknown capability '\(capability)'")
            }
        }
    }

    private static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "missing field '\(parent.isEmpty ? "" : parent + ".")\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "field '\(path(context))' has the wrong type: \(context.debugDescription)"
        case .dataCorrupted(let context):
            let field = path(context)
            if field.isEmpty {
                return
                    "not valid JSON: \(context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription)"
            }
            return "field '\(field)' is invalid: \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
