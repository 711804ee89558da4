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

    @Test(arguments: ["", "abc", "zz", "ff d8 f", "0x89"])
    func rejectsMalformedPatterns(pattern: String) {
        #expect(MagicSignature(pattern: pattern) == nil)
    }
}
