/// Calls `body` with the UTF-8 bytes of `key` and their count, for a cache plugin's
/// `(key, key_length)` arguments; the pointer is never NULL, also for an empty key.
@inline(__always)
func withCacheKey<Result>(_ key: String, _ body: (UnsafePointer<CChar>, Int) -> Result) -> Result {
    var key = key
    return key.withUTF8 { utf8 in
        utf8.withMemoryRebound(to: CChar.self) { characters in
            if let base = characters.baseAddress { return body(base, characters.count) }
            var empty: CChar = 0
            return withUnsafePointer(to: &empty) { body($0, 0) }
        }
    }
}
