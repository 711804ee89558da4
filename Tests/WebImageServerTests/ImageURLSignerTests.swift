import Testing
import WebImageServer
import WebImageTestSupport

@Suite("ImageURLSigner", .ownThread)
struct ImageURLSignerTests {
    /// imgproxy's documented example: key `secret`, salt `hello`.
    static let exampleKey = "736563726574"
    static let exampleSalt = "68656C6C6F"
    static let examplePath = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"

    @Test("imgproxy's documented example signs to its documented signature, which openssl computes too")
    func documentedExample() throws {
        let signer = try ImageURLSigner(keyHex: Self.exampleKey, saltHex: Self.exampleSalt)
        let documented = "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8"
        #expect(signer.sign(path: Self.examplePath) == "/" + documented + Self.examplePath)
        #expect(
            try OpenSSLSignature.signature(of: Self.examplePath, keyHex: Self.exampleKey, saltHex: Self.exampleSalt)
                == documented)
        #expect(signer.verify(signature: documented, path: Self.examplePath))
    }

    @Test(
        "signatures equal openssl's HMAC-SHA256 of salt and path",
        arguments: [
            ("00", "00", "/plain/http://127.0.0.1/a.jpg"),
            ("DEADBEEFdeadbeef", "0102", "/rs:fit:256:256/q:80/plain/http://127.0.0.1/photo%20one.jpg@webp"),
            (String(repeating: "ab", count: 100), "ff", "/w:100/aHR0cDovLzEyNy4wLjAuMS9hLnBuZw.png"),
            ("6b6579", String(repeating: "5a", count: 40), "/tint:ff0000/plain/http://127.0.0.1/é.png"),
        ])
    func matchesOpenSSL(key: String, salt: String, path: String) throws {
        let signer = try ImageURLSigner(keyHex: key, saltHex: salt)
        let expected = try OpenSSLSignature.signature(of: path, keyHex: key, saltHex: salt)
        #expect(signer.sign(path: path) == "/\(expected)\(path)")
        #expect(signer.verify(signature: expected, path: path))
    }

    @Test(
        "a tampered path, option, source or extension, or a tampered signature, does not verify",
        arguments: [
            ("path", "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png/"),
            ("option", "/rs:fill:300:401:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"),
            ("source", "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHkx/anBn.png"),
            ("extension", "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.jpg"),
        ])
    func tampered(part: String, path: String) throws {
        let signer = try ImageURLSigner(keyHex: Self.exampleKey, saltHex: Self.exampleSalt)
        #expect(!signer.verify(signature: "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", path: path), "\(part)")
    }

    @Test("a wrong, truncated, padded-wrong or non-base64 signature does not verify")
    func badSignatures() throws {
        let signer = try ImageURLSigner(keyHex: Self.exampleKey, saltHex: Self.exampleSalt)
        for signature in [
            "pKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH",
            "oKfUtW34Dvo2BGQehJFR4Nr0/rIjOtdtzJ3QFsUcXH8", "insecure", "", "%%%",
        ] {
            #expect(!signer.verify(signature: signature, path: Self.examplePath), "\(signature)")
        }
    }

    @Test("with two pairs the first signs and a signature of either verifies (key rotation)")
    func keyRotation() throws {
        let old = try ImageURLSigner.KeyPair(keyHex: Self.exampleKey, saltHex: Self.exampleSalt)
        let new = try ImageURLSigner.KeyPair(keyHex: "0a0b0c", saltHex: "0d0e")
        let signer = try ImageURLSigner(pairs: [new, old])
        let byNew = try OpenSSLSignature.signature(of: Self.examplePath, keyHex: "0a0b0c", saltHex: "0d0e")
        #expect(signer.sign(path: Self.examplePath) == "/\(byNew)\(Self.examplePath)")
        #expect(signer.verify(signature: byNew, path: Self.examplePath))
        #expect(signer.verify(signature: "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", path: Self.examplePath))
        let onlyNew = try ImageURLSigner(pairs: [new])
        #expect(!onlyNew.verify(signature: "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", path: Self.examplePath))
    }

    @Test(
        "a key or salt that is not hexadecimal is one error naming which and why",
        arguments: [
            ("", "00", "the key is empty"),
            ("abc", "00", "the key has an odd number of hexadecimal digits (3)"),
            ("zz", "00", "the key is not hexadecimal: 'zz'"),
            ("00", "", "the salt is empty"),
            ("00", "0", "the salt has an odd number of hexadecimal digits (1)"),
            ("00", "0x10", "the salt is not hexadecimal: '0x10'"),
        ])
    func badHex(key: String, salt: String, message: String) {
        #expect(throws: ImageURLSignerError(message)) { try ImageURLSigner(keyHex: key, saltHex: salt) }
    }

    @Test("a signer needs a pair")
    func noPairs() {
        #expect(throws: ImageURLSignerError("no key and salt given")) { try ImageURLSigner(pairs: []) }
    }
}

extension ImageURLSignerTests {
    @Test("a key pair describes itself by its sizes, never its bytes")
    func redactedDescription() throws {
        let pair = try ImageURLSigner.KeyPair(keyHex: Self.exampleKey, saltHex: Self.exampleSalt)
        #expect(String(describing: pair) == "KeyPair(key: 6 bytes, salt: 5 bytes)")
        #expect(String(reflecting: pair) == "KeyPair(key: 6 bytes, salt: 5 bytes)")
        #expect(String(describing: try ImageURLSigner(pairs: [pair])).contains("6 bytes"))
    }
}
