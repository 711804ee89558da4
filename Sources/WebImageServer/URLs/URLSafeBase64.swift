import FoundationEssentials

/// Base64 with the URL-safe alphabet (`-` and `_` for `+` and `/`), written without `=`
/// padding, as imgproxy's signatures and encoded sources are.
enum URLSafeBase64 {
    /// `bytes` encoded, without padding.
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    /// The bytes `text` encodes (padding optional), or nil when it is not URL-safe base64:
    /// a character outside the alphabet (`+` and `/` included), `=` anywhere but at the end, or
    /// a length of 4n + 1 without the padding. Bits left over at the end are ignored, as
    /// Foundation's and Go's decoders (imgproxy's) ignore them. Read byte by byte, without
    /// Foundation: a signature is decoded on every request.
    static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { utf8 in
            var end = utf8.count
            while end > 0 && utf8[end - 1] == UInt8(ascii: "=") { end -= 1 }
            guard end % 4 != 1 else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(end * 3 / 4)
            var pending: UInt32 = 0
            var pendingBits = 0
            for index in 0..<end {
                guard let value = sextet(utf8[index]) else { return nil }
                pending = pending << 6 | UInt32(value)
                pendingBits += 6
                if pendingBits >= 8 {
                    pendingBits -= 8
                    bytes.append(UInt8(truncatingIfNeeded: pending >> UInt32(pendingBits)))
                    pending &= (1 << UInt32(pendingBits)) - 1
                }
            }
            return bytes
        }
    }

    /// The value of one character of the URL-safe alphabet, or nil.
    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
