import Testing
import WebImageCore

@Suite struct MagicSignatureTests {
    @Test func matchesExactBytesAndWildcards() throws {
        let webp = try #require(MagicSignature(pattern: "52494646????????57454250"))
        let file: [UInt8] = Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBPVP8 ".utf8)
        #expect(file.withUnsafeBytes { webp.matches($0) })
        let wrong: [UInt8] = Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WAVE".utf8)
        #expect(!wrong.withUnsafeBytes { webp.matches($0) })
        #expect(webp.description == "52494646????????57454250")
    }

    @Test func shorterDataDoesNotMatch() throws {
        let png = try #require(MagicSignature(pattern: "89504E470D0A1A0A"))
        let head: [UInt8] = [0x89, 0x50, 0x4E]
        #expect(!head.withUnsafeBytes { png.matches($0) })
    }

    @Test(
        "either case, ASCII spaces and line breaks anywhere",
        arguments: [
            ("89504e47", [0x89, 0x50, 0x4E, 0x47]), ("89504E47", [0x89, 0x50, 0x4E, 0x47]),
            ("ff d8\tf\nf", [0xFF, 0xD8, 0xFF]), (" ?? 0A \r\n", [nil, 0x0A]),
        ] as [(String, [UInt8?])])
    func parsesHexPairsAndWildcards(pattern: String, bytes: [UInt8?]) throws {
        #expect(try #require(MagicSignature(pattern: pattern)).bytes == bytes)
    }

    @Test(arguments: ["", "abc", "zz", "ff d8 f", "0x89", "?a", "a?", "   ", "ff\u{A0}d8", "éé", "+1"])
    func rejectsMalformedPatterns(pattern: String) {
        #expect(MagicSignature(pattern: pattern) == nil)
    }
}
