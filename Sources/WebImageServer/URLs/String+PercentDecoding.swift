import WebImageCore

extension String {
    /// The text with each `%XX` replaced by the byte it spells (as Foundation's
    /// `removingPercentEncoding`), or nil when a `%` is not followed by two hex digits or the
    /// bytes are not UTF-8. A `+` stays a `+`.
    var percentDecoded: String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(UInt8.init(hexDigit:)),
                let low = iterator.next().flatMap(UInt8.init(hexDigit:))
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
