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
