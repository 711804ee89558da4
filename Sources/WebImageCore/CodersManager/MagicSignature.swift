/// A pattern the first bytes of a file must match: hex digits, `??` for any byte.
///
/// For example `89504e470d0a1a0a` (PNG) or `52494646????????57454250` (WebP's RIFF header).
public struct MagicSignature: Sendable, Hashable, CustomStringConvertible {
    /// The pattern, one entry per byte: nil matches any byte.
    public let bytes: [UInt8?]

    /// Parses a hex pattern; nil when it is empty or not hex digits and `??` pairs.
    public init?(pattern: String) {
        let characters = Array(pattern.lowercased().filter { !$0.isWhitespace })
        guard !characters.isEmpty, characters.count % 2 == 0 else { return nil }
        var parsed: [UInt8?] = []
        for index in stride(from: 0, to: characters.count, by: 2) {
            let pair = String(characters[index...index + 1])
            if pair == "??" {
                parsed.append(nil)
            } else if let value = UInt8(pair, radix: 16) {
                parsed.append(value)
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
        bytes.map { $0.map { String(format2: $0) } ?? "??" }.joined()
    }
}

extension String {
    /// Two lowercase hex digits.
    fileprivate init(format2 byte: UInt8) {
        let digits = Array("0123456789abcdef")
        self = String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
