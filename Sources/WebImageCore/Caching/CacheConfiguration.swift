import CWebImagePlugin

#if canImport(Glibc)
    import Glibc
#endif

/// Settings for a cache backend as key/value strings, in order (`directory`, `namespace`,
/// `max-size`, a server's `url`, ...): what reaches a plugin as a `webimage_config`, so a new
/// backend needs no new ABI. Each backend documents the keys it takes and rejects others.
public struct CacheConfiguration: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The settings in the order they were given; a later value for a key wins in the plugin.
    public var entries: [(key: String, value: String)]

    public init(_ entries: [(key: String, value: String)] = []) {
        self.entries = entries
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        entries = elements.map { (key: $0.0, value: $0.1) }
    }

    /// The value of `key`, the last one given.
    public subscript(key: String) -> String? {
        get { entries.last { $0.key == key }?.value }
        set {
            entries.removeAll { $0.key == key }
            if let newValue { entries.append((key: key, value: newValue)) }
        }
    }

    public static func == (left: Self, right: Self) -> Bool {
        left.entries.map(\.key) == right.entries.map(\.key) && left.entries.map(\.value) == right.entries.map(\.value)
    }

    /// Calls `body` with a `webimage_config` whose strings live for the call.
    public func withUnsafeConfig<Result>(_ body: (UnsafePointer<webimage_config>) throws -> Result) rethrows -> Result {
        let strings = entries.map { (strdup($0.key)!, strdup($0.value)!) }
        defer {
            for (key, value) in strings {
                free(key)
                free(value)
            }
        }
        let cEntries = strings.map { webimage_config_entry(key: $0.0, value: $0.1) }
        return try cEntries.withUnsafeBufferPointer { buffer in
            var config = webimage_config(
                struct_size: UInt32(MemoryLayout<webimage_config>.size), count: UInt32(buffer.count),
                entries: buffer.baseAddress)
            return try body(&config)
        }
    }
}
