/// What bytes that no coder decodes look like, for the error that says so: a well-known
/// format by its first bytes (a document, an archive, or an image format no loaded plugin
/// handles), text, or only their size. The bytes themselves never appear in the message: they
/// are the caller's (a private file's first line, a server's error page).
enum ContentSniffer {
    /// `looks like PDF, 1234 bytes`, `looks like text, 5 bytes`, or `5 bytes`; `0 bytes` for
    /// none; followed by `; served as application/pdf` when the server named a `servedAs` type.
    static func describe(_ bytes: UnsafeRawBufferPointer, servedAs contentType: String? = nil) -> String {
        let served = contentType.map { "; served as \($0)" } ?? ""
        return look(of: bytes) + served
    }

    private static func look(of bytes: UnsafeRawBufferPointer) -> String {
        let size = bytes.count == 1 ? "1 byte" : "\(bytes.count) bytes"
        if bytes.isEmpty { return size }
        if let name = formatName(of: bytes) { return "looks like \(name), \(size)" }
        if isText(bytes) { return "looks like text, \(size)" }
        return size
    }

    /// Magic numbers of formats people fetch by mistake, or images in formats without a
    /// bundled coder. Each: the name, and the bytes at offset 0.
    private static let magics: [(name: String, prefix: [UInt8])] = [
        ("PDF", Array("%PDF-".utf8)),
        ("gzip", [0x1F, 0x8B]),
        ("ZIP", [0x50, 0x4B, 0x03, 0x04]),
        ("BMP", Array("BM".utf8)),
        ("TIFF", [0x49, 0x49, 0x2A, 0x00]),
        ("TIFF", [0x4D, 0x4D, 0x00, 0x2A]),
        ("Photoshop", Array("8BPS".utf8)),
        ("JPEG XL", [0xFF, 0x0A]),
        ("JPEG XL", [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]),
        ("ICO", [0x00, 0x00, 0x01, 0x00]),
    ]

    /// Markup and data formats by their first non-blank characters, lowercased.
    private static let textual: [(name: String, prefix: String)] = [
        ("HTML", "<!doctype html"), ("HTML", "<html"), ("SVG", "<svg"), ("XML", "<?xml"), ("JSON", "{"),
        ("JSON", "["),
    ]

    private static func formatName(of bytes: UnsafeRawBufferPointer) -> String? {
        if let magic = magics.first(where: { bytes.starts(with: $0.prefix) }) { return magic.name }
        let head = String(decoding: bytes.prefix(512), as: UTF8.self)
            .drop { $0 == "\u{FEFF}" || $0.isWhitespace }.lowercased()
        guard let markup = textual.first(where: { head.hasPrefix($0.prefix) }) else { return nil }
        // An SVG file often starts with an XML declaration.
        if markup.name == "XML", head.contains("<svg") { return "SVG" }
        return markup.name
    }

    /// True when the first 512 bytes are printable UTF-8 text (tabs and line ends allowed).
    private static func isText(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let head = Array(bytes.prefix(512))
        guard let text = String(validating: head, as: UTF8.self) ?? validPrefix(head) else { return false }
        return text.unicodeScalars.allSatisfy { $0.value >= 0x20 || $0 == "\n" || $0 == "\r" || $0 == "\t" }
    }

    /// `head` as text when only its last few bytes are cut inside a UTF-8 sequence.
    private static func validPrefix(_ head: [UInt8]) -> String? {
        for cut in 1...3 where head.count > cut {
            if let text = String(validating: head.dropLast(cut), as: UTF8.self) { return text }
        }
        return nil
    }
}
