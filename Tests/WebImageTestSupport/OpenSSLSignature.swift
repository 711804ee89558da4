import Foundation

/// imgproxy's URL signature computed without the code under test: `openssl dgst` makes the
/// HMAC-SHA256 of salt ‖ path with the key, and the digest is written in URL-safe base64
/// without padding here.
public enum OpenSSLSignature {
    /// The signature of `path` with the hexadecimal `keyHex` and `saltHex`.
    /// - Throws: ``HarnessError`` when `saltHex` is not hexadecimal or openssl fails.
    public static func signature(of path: String, keyHex: String, saltHex: String) throws -> String {
        let folder = try TemporaryDirectory()
        let message = try folder.write("message", try bytes(hex: saltHex) + Array(path.utf8))
        let digest = try ChildProcess.output(
            of: "/usr/bin/openssl",
            ["dgst", "-sha256", "-mac", "HMAC", "-macopt", "hexkey:\(keyHex)", "-binary", message])
        guard digest.count == 32 else { throw HarnessError("openssl wrote \(digest.count) bytes, not 32") }
        return Data(digest).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of the hexadecimal `text`.
    private static func bytes(hex text: String) throws -> [UInt8] {
        let characters = Array(text)
        guard characters.count.isMultiple(of: 2) else { throw HarnessError("'\(text)' is not hexadecimal") }
        return try stride(from: 0, to: characters.count, by: 2).map { index in
            guard let byte = UInt8(String(characters[index...index + 1]), radix: 16) else {
                throw HarnessError("'\(text)' is not hexadecimal")
            }
            return byte
        }
    }
}
