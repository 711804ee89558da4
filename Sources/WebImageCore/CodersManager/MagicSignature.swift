/// A pattern the first bytes of a file must match: hex digits, `??` for any byte.
///
/// For example `89504e470d0a1a0a` (PNG) or `52494646????????57454250` (WebP's RIFF header).
public struct MagicSignature: Sendable, Hashable, CustomStringConvertible {
    /// The pattern, one entry per byte: nil matches any byte.
    public let bytes: [UInt8?]

    /// Parses a hex pattern, in either case, ASCII spaces and line breaks ignored; nil when it is
    /// empty, or anything else than hex digit pairs and `??` pairs.
    ///
    /// It reads the text's UTF-8 bytes: every manifest's patterns are parsed when the plugins are
    /// discovered, and going through `Character` (its Unicode properties) and the generic
    /// `UInt8(_:radix:)` cost about 9 M instructions for the bundled plugins' patterns, a fifth of
    /// `webimage info`.
    public init?(pattern: String) {
        var digits: [UInt8] = []
        for byte in pattern.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C: continue
            default: digits.append(byte)
            }
        }
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var parsed: [UInt8?] = []
        parsed.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            let (first, second) = (digits[index], digits[index + 1])
            if first == UInt8(ascii: "?") && second == UInt8(ascii: "?") {
                parsed.append(nil)
            } else if let high = UInt8(hexDigit: first), let low = UInt8(hexDigit: second) {
                parsed.append(high << 4 | low)
            } else {
                return nil
            }
        }
        bytes = parsed
    }

    /// True when `data` starts with this pattern.
    public func matches(_ data: UnsafeRawBufferPointer) -> Bool {
        guard data.count >= bytes.count else { return false }
        for (index, expected) in bytes.enumerated() {
            if let expected, data[index] != expected { return false }
        }
        return true
    }

    public var description: String {
        bytes.map { $0.map { String(hexEncoding: [$0]) } ?? "??" }.joined()
    }
}
