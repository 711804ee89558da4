import Testing

@testable import WebImageCore

/// What the error for bytes no coder decodes says they look like.
@Suite struct ContentSnifferTests {
    func describe(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { ContentSniffer.describe($0) }
    }

    func describe(_ text: String) -> String { describe(Array(text.utf8)) }

    @Test func documentsAndArchivesByTheirMagic() {
        #expect(describe("%PDF-1.7\n%\u{E2}\u{E3}") == "looks like PDF, 14 bytes")
        #expect(describe([0x1F, 0x8B, 0x08, 0x00]) == "looks like gzip, 4 bytes")
        #expect(describe([0x50, 0x4B, 0x03, 0x04, 0x14]) == "looks like ZIP, 5 bytes")
    }

    @Test func theServedTypeFollowsTheLook() {
        let pdf = Array("%PDF-1.7\n".utf8)
        #expect(
            pdf.withUnsafeBytes { ContentSniffer.describe($0, servedAs: "application/pdf") }
                == "looks like PDF, 9 bytes; served as application/pdf")
        #expect(
            [UInt8]().withUnsafeBytes { ContentSniffer.describe($0, servedAs: "text/html") }
                == "0 bytes; served as text/html")
    }

    @Test func imagesInFormatsWithoutABundledCoder() {
        #expect(describe(Array("BM".utf8) + [0x36, 0x00, 0x00, 0x00]) == "looks like BMP, 6 bytes")
        #expect(describe([0x49, 0x49, 0x2A, 0x00, 0x08]) == "looks like TIFF, 5 bytes")
        #expect(describe([0x4D, 0x4D, 0x00, 0x2A]) == "looks like TIFF, 4 bytes")
        #expect(describe([0xFF, 0x0A, 0x00]) == "looks like JPEG XL, 3 bytes")
        #expect(describe(Array("8BPS".utf8) + [0, 1]) == "looks like Photoshop, 6 bytes")
    }

    @Test func markupAfterBlanksAndAByteOrderMark() {
        #expect(describe("\u{FEFF}  <!DOCTYPE html><html>") == "looks like HTML, 26 bytes")
        #expect(describe("<html lang=en>") == "looks like HTML, 14 bytes")
        #expect(describe("<?xml version=\"1.0\"?>\n<svg xmlns=\"x\"/>") == "looks like SVG, 38 bytes")
        #expect(describe("<?xml version=\"1.0\"?><feed/>") == "looks like XML, 28 bytes")
        #expect(describe("\n{\"error\": \"not found\"}") == "looks like JSON, 23 bytes")
    }

    @Test func textIsNamedButNotQuoted() {
        #expect(describe("root:x:0:0:root:/root:/bin/bash\n") == "looks like text, 32 bytes")
        #expect(describe("404 Not Found\r\nmore") == "looks like text, 19 bytes")
        // Text cut inside a UTF-8 sequence at the 512-byte mark is still text.
        #expect(describe(Array(String(repeating: "é", count: 300).utf8)) == "looks like text, 600 bytes")
    }

    @Test func otherBytesGiveOnlyTheirSize() {
        #expect(describe([]) == "0 bytes")
        #expect(describe([0x00]) == "1 byte")
        #expect(describe([0, 1, 2]) == "3 bytes")
        #expect(describe([0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88]) == "9 bytes")
        #expect(describe("a\u{1}b") == "3 bytes")
    }
}
