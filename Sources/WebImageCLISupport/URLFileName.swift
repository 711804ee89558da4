/// The file name `fetch -o DIR` and `get --output-dir DIR` save a URL's body under, made from
/// the URL's raw last path segment (query and fragment dropped; nothing percent-decoded):
/// letters, digits, `.`, `_` and `-` kept, every other character (`%`, `/`, controls,
/// spaces...) becomes `_`; cut to ``maximumBytes`` on a character boundary; ``fallback`` when
/// nothing or only dots remain, or the URL has no path.
package enum URLFileName {
    /// The longest name made from a URL, in UTF-8 bytes: 200, which leaves room for a suffix
    /// and an extension under the 255 bytes of a file name.
    package static let maximumBytes = 200
    /// The name of a URL without a usable last path segment (`http://h/`, `data:`): `index`.
    package static let fallback = "index"

    /// The name for `url`. The URL is taken apart as UTF-8 bytes (its delimiters are ASCII),
    /// in place: a name is made for every URL of a `fetch`, and generic `String.UTF8View`
    /// walks cost more than 10,000 instructions a URL.
    package static func name(for url: String) -> String {
        url.utf8.withContiguousStorageIfAvailable(name(utf8:)) ?? Array(url.utf8).withUnsafeBufferPointer(name(utf8:))
    }

    private static func name(utf8 url: UnsafeBufferPointer<UInt8>) -> String {
        let end = url.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? url.count
        guard let segment = lastSegment(url[..<end]) else { return fallback }
        if segment.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) {
            // ASCII, the usual case: the rule byte by byte, without Unicode properties (CR is
            // left to the loop below: CR LF is one character, one `_`).
            let name = String(unsafeUninitializedCapacity: min(segment.count, maximumBytes)) { buffer in
                for (offset, byte) in segment.prefix(maximumBytes).enumerated() {
                    buffer[offset] = isKept(byte) ? byte : UInt8(ascii: "_")
                }
                return min(segment.count, maximumBytes)
            }
            return name.utf8.allSatisfy({ $0 == UInt8(ascii: ".") }) ? fallback : name
        }
        var name = ""
        for character in String(decoding: segment, as: UTF8.self) {
            let kept = character.isLetter || character.isNumber || "._-".contains(character)
            let safe = kept && character.unicodeScalars.allSatisfy { !$0.properties.isDefaultIgnorableCodePoint }
            let next = safe ? String(character) : "_"
            guard name.utf8.count + next.utf8.count <= maximumBytes else { break }
            name += next
        }
        return name.isEmpty || name.allSatisfy({ $0 == "." }) ? fallback : name
    }

    /// The last non-empty `/`-separated segment after the authority of `url` (without query
    /// and fragment), or nil when it has no `://` or no segment after the host.
    private static func lastSegment(_ url: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>>? {
        let slash = UInt8(ascii: "/")
        var scheme = url.startIndex
        while scheme + 3 <= url.endIndex,
            !(url[scheme] == UInt8(ascii: ":") && url[scheme + 1] == slash && url[scheme + 2] == slash)
        {
            scheme += 1
        }
        guard scheme + 3 <= url.endIndex else { return nil }  // data: and other opaque URLs
        let rest = url[(scheme + 3)...]
        // The segments are the non-empty runs between slashes; the first is the host.
        guard let lastEnd = rest.lastIndex(where: { $0 != slash }).map({ $0 + 1 }) else { return nil }
        let lastStart = rest[..<lastEnd].lastIndex(of: slash).map { $0 + 1 } ?? rest.startIndex
        guard rest[..<lastStart].contains(where: { $0 != slash }) else { return nil }  // the host alone
        return rest[lastStart..<lastEnd]
    }

    /// Whether an ASCII byte stays as it is: a letter, a digit, `.`, `_` or `-`.
    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
