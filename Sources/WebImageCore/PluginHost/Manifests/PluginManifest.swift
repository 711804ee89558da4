import FoundationEssentials

/// A plugin's manifest: everything the host knows about a plugin without opening it.
///
/// Stored as `<name>.json` next to the library, with one section per kind the plugin has:
/// ```json
/// { "name": "png", "version": "1.0.0", "abi_version": 1, "library": "libWebImagePNG.so",
///   "coder": { "priority": 100,
///              "formats": [{ "name": "png", "mime_types": ["image/png"], "extensions": ["png"],
///                            "signatures": ["89504e470d0a1a0a"], "capabilities": ["decode", "encode"] }] } }
/// ```
/// The sections are `coder`, `loader` (`{"schemes": [...]}`), `memory_cache` (`{}`),
/// `disk_cache` (`{}`) and `transformer` (`{"names": [...]}`). The plugin's kinds are the
/// sections present; a `kinds` list may be given too and must then name the same kinds.
///
/// The flat form of the first coder manifests, with `kinds`, `priority` and `formats` at the
/// top level, is still read: it is a coder whose section is those two fields.
public struct PluginManifest: Sendable, Equatable, Codable {
    public var name: String
    public var version: String
    public var abiVersion: UInt32
    /// The shared object, relative to the manifest's folder (or absolute).
    public var library: String
    /// One line for people; optional.
    public var summary: String?
    public var coder: CoderSection?
    public var loader: LoaderSection?
    public var memoryCache: MemoryCacheSection?
    public var diskCache: DiskCacheSection?
    public var transformer: TransformerSection?

    enum CodingKeys: String, CodingKey {
        case name, version, library, summary, coder, loader, transformer
        case abiVersion = "abi_version"
        case memoryCache = "memory_cache"
        case diskCache = "disk_cache"
    }

    /// The top-level keys of the flat coder form.
    private enum FlatCoderKeys: String, CodingKey {
        case kinds, priority, formats
    }

    /// The kinds whose sections the manifest has, in ``PluginKind`` order.
    public var kinds: [PluginKind] {
        PluginKind.allCases.filter { kind in
            switch kind {
            case .coder: coder != nil
            case .loader: loader != nil
            case .memoryCache: memoryCache != nil
            case .diskCache: diskCache != nil
            case .transformer: transformer != nil
            }
        }
    }

    /// The coder's priority; 0 when the plugin has no coder.
    public var priority: Int { coder?.priority ?? 0 }

    /// The coder's formats; empty when the plugin has no coder.
    public var formats: [Format] { coder?.formats ?? [] }

    /// The magic signatures of every coder format.
    public var signatures: [MagicSignature] {
        formats.flatMap { $0.signatures.compactMap(MagicSignature.init(pattern:)) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        version = try container.decode(String.self, forKey: .version)
        abiVersion = try container.decode(UInt32.self, forKey: .abiVersion)
        library = try container.decode(String.self, forKey: .library)
        summary = try container.decodeIfPresent(String.self, forKey: .summary)
        coder = try container.decodeIfPresent(CoderSection.self, forKey: .coder)
        loader = try container.decodeIfPresent(LoaderSection.self, forKey: .loader)
        memoryCache = try container.decodeIfPresent(MemoryCacheSection.self, forKey: .memoryCache)
        diskCache = try container.decodeIfPresent(DiskCacheSection.self, forKey: .diskCache)
        transformer = try container.decodeIfPresent(TransformerSection.self, forKey: .transformer)
        let flat = try decoder.container(keyedBy: FlatCoderKeys.self)
        let listedKinds = try flat.decodeIfPresent([PluginKind].self, forKey: .kinds)
        if flat.contains(.priority) || flat.contains(.formats) {
            guard coder == nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .formats, in: flat,
                    debugDescription: "top-level 'formats' or 'priority' beside a 'coder' section; use one form")
            }
            coder = CoderSection(
                priority: try flat.decodeIfPresent(Int.self, forKey: .priority) ?? 0,
                formats: try flat.decodeIfPresent([Format].self, forKey: .formats) ?? [])
        } else if coder == nil, listedKinds?.contains(.coder) == true {
            coder = CoderSection(formats: [])
        }
        if let listedKinds { try Self.check(listedKinds, against: kinds, in: flat) }
    }

    /// Throws when a `kinds` list is empty or names other kinds than the sections.
    private static func check(
        _ listedKinds: [PluginKind], against kinds: [PluginKind], in container: KeyedDecodingContainer<FlatCoderKeys>
    ) throws {
        func fail(_ reason: String) -> DecodingError {
            DecodingError.dataCorruptedError(forKey: .kinds, in: container, debugDescription: reason)
        }
        guard !listedKinds.isEmpty else { throw fail("'kinds' is empty") }
        let missing = listedKinds.filter { !kinds.contains($0) }.map(\.rawValue)
        guard missing.isEmpty else {
            throw fail("it lists [\(missing.joined(separator: ", "))] but the manifest has no section for it")
        }
        let unlisted = kinds.filter { !listedKinds.contains($0) }.map(\.rawValue)
        guard unlisted.isEmpty else {
            throw fail("the manifest has sections for [\(unlisted.joined(separator: ", "))] that it does not list")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(version, forKey: .version)
        try container.encode(abiVersion, forKey: .abiVersion)
        try container.encode(library, forKey: .library)
        try container.encodeIfPresent(summary, forKey: .summary)
        try container.encodeIfPresent(coder, forKey: .coder)
        try container.encodeIfPresent(loader, forKey: .loader)
        try container.encodeIfPresent(memoryCache, forKey: .memoryCache)
        try container.encodeIfPresent(diskCache, forKey: .diskCache)
        try container.encodeIfPresent(transformer, forKey: .transformer)
    }

    /// The `library` field of the manifest at `path` when the file is a JSON object with a
    /// non-empty string there, even when the rest of it is wrong; nil otherwise.
    static func declaredLibrary(at path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path),
            let library = try? JSONDecoder().decode(LibraryField.self, from: data).library, !library.isEmpty
        else { return nil }
        return library
    }

    /// A manifest's `library` field alone; the decoder ignores every other field.
    private struct LibraryField: Decodable {
        let library: String?
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
        guard !kinds.isEmpty else {
            throw fail("no kind: add a 'coder', 'loader', 'memory_cache', 'disk_cache' or 'transformer' section")
        }
        if let coder, coder.formats.isEmpty { throw fail("a coder must list at least one format") }
        if let loader, loader.schemes.isEmpty { throw fail("a loader must list at least one scheme") }
        if let transformer, transformer.names.isEmpty { throw fail("a transformer must list at least one name") }
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
                    "not valid JSON: \(context.underlyingError.map { "\($0)" } ?? context.debugDescription)"
            }
            return "field '\(field)' is invalid: \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
