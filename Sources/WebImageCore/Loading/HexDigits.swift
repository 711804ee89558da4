extension UInt8 {
    /// The value of the ASCII hex digit `digit` (`0`–`9`, `a`–`f`, `A`–`F`), or nil for any other
    /// byte: what hex keys, percent escapes and magic patterns are read with.
    package init?(hexDigit digit: UInt8) {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self = digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self = digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self = digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension String {
    /// `bytes` as lowercase hex, two digits a byte: what entity tags and magic patterns are
    /// written with.
    package init(hexEncoding bytes: some Sequence<UInt8>) {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        self = String(decoding: text, as: UTF8.self)
    }
}
