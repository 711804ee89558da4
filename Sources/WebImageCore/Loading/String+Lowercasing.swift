extension String {
    /// `text` lowercased, as `lowercased()` does, without its Unicode machinery when `text` is
    /// ASCII (a URL's scheme and host, nearly always): `Substring.lowercased()` cost 2,500
    /// instructions a call, several times a download.
    init(lowercasing text: Substring.UTF8View) {
        guard text.allSatisfy({ $0 < 0x80 }) else {
            self = Substring(text).lowercased()
            return
        }
        self = String(
            unsafeUninitializedCapacity: text.count,
            initializingUTF8With: { buffer in
                var count = 0
                for byte in text {
                    buffer[count] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
                    count += 1
                }
                return count
            })
    }
}
