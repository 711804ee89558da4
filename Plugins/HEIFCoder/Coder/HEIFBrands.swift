/// The `ftyp` brands the coder recognises, and the sniffing built on them.
enum HEIFBrands {
    /// HEVC still images and sequences (`heic`, `heix`, `heim`, `heis`, `hevc`, `hevx`, `hevm`,
    /// `hevs`) and the generic HEIF brands (`mif1`, `msf1`), whose codec only the boxes tell.
    static let heif: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1"]
    /// AV1 still images and sequences.
    static let avif: Set<String> = ["avif", "avis"]

    /// True when `bytes` start with an `ftyp` box whose major brand, or one of whose
    /// compatible brands (as far as `bytes` reach), is a HEIF or AVIF brand.
    static func matches(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 12, fourCC(bytes, at: 4) == "ftyp" else { return false }
        let known = heif.union(avif)
        if known.contains(fourCC(bytes, at: 8)) { return true }
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        var offset = 16
        while offset + 4 <= min(boxSize, bytes.count) {
            if known.contains(fourCC(bytes, at: offset)) { return true }
            offset += 4
        }
        return false
    }

    private static func fourCC(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }
}
