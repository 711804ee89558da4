internal import Crypto
import WebImageCore

/// Signs and verifies image server paths the way imgproxy does, so its client libraries work
/// unchanged: the signature of a path is the URL-safe base64, without padding, of
/// HMAC-SHA256(key, salt ‖ path), where the path is everything after the signature segment,
/// its leading `/` included. A signed path is `/{signature}{path}`.
///
/// Several key/salt pairs may be given for key rotation: ``sign(path:)`` signs with the first,
/// ``verify(signature:path:)`` accepts a signature from any of them.
public struct ImageURLSigner: Sendable {
    /// A key and the salt that goes with it.
    public struct KeyPair: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
        /// The HMAC key's bytes.
        public let key: [UInt8]
        /// The bytes put before the path.
        public let salt: [UInt8]

        public init(key: [UInt8], salt: [UInt8]) {
            self.key = key
            self.salt = salt
        }

        /// The sizes only, so that logs and test reports never show a secret.
        public var description: String { "KeyPair(key: \(key.count) bytes, salt: \(salt.count) bytes)" }
        public var debugDescription: String { description }

        /// The pair written in hexadecimal, as the configuration and `webimage sign` take it.
        /// - Throws: ``ImageURLSignerError`` naming the key or the salt that is not hexadecimal.
        public init(keyHex: String, saltHex: String) throws(ImageURLSignerError) {
            self.init(key: try Self.bytes(keyHex, "key"), salt: try Self.bytes(saltHex, "salt"))
        }

        /// The bytes of the hexadecimal `text`, which is the `what` of a pair.
        private static func bytes(_ text: String, _ what: String) throws(ImageURLSignerError) -> [UInt8] {
            let digits = Array(text.utf8)
            guard !digits.isEmpty else { throw ImageURLSignerError("the \(what) is empty") }
            guard digits.count.isMultiple(of: 2) else {
                throw ImageURLSignerError("the \(what) has an odd number of hexadecimal digits (\(digits.count))")
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(digits.count / 2)
            for index in stride(from: 0, to: digits.count, by: 2) {
                guard let high = UInt8(hexDigit: digits[index]), let low = UInt8(hexDigit: digits[index + 1]) else {
                    throw ImageURLSignerError("the \(what) is not hexadecimal: '\(text)'")
                }
                bytes.append(high << 4 | low)
            }
            return bytes
        }
    }

    /// The pairs in order; the first signs.
    public let pairs: [KeyPair]
    /// For each pair, HMAC-SHA256 keyed with its key and fed its salt: each signature copies
    /// one and adds the path.
    private let saltedMACs: [HMAC<SHA256>]

    /// A signer with `pairs` (at least one).
    /// - Throws: ``ImageURLSignerError`` when `pairs` is empty.
    public init(pairs: [KeyPair]) throws(ImageURLSignerError) {
        guard !pairs.isEmpty else { throw ImageURLSignerError("no key and salt given") }
        self.pairs = pairs
        saltedMACs = pairs.map(Self.saltedMAC)
    }

    /// A signer with one pair written in hexadecimal.
    /// - Throws: ``ImageURLSignerError`` naming the key or the salt that is not hexadecimal.
    public init(keyHex: String, saltHex: String) throws(ImageURLSignerError) {
        try self.init(pairs: [try KeyPair(keyHex: keyHex, saltHex: saltHex)])
    }

    /// `path` (starting with `/`) signed with the first pair: `/{signature}{path}`.
    public func sign(path: String) -> String {
        "/" + URLSafeBase64.encode(Array(mac(of: path, salted: saltedMACs[0]))) + path
    }

    /// The signature of `path` with `pair`: URL-safe base64 without padding of
    /// HMAC-SHA256(key, salt ‖ path).
    public func signature(of path: String, with pair: KeyPair) -> String {
        URLSafeBase64.encode(Array(mac(of: path, salted: Self.saltedMAC(pair))))
    }

    /// Whether `signature` (the first segment of a request path, without slashes) signs `path`
    /// with any pair. Every pair is tried and the digests are compared in constant time, so
    /// the answer's timing says nothing about the right signature.
    public func verify(signature: String, path: String) -> Bool {
        let given = URLSafeBase64.decode(signature)
        var matches = false
        for salted in saltedMACs {
            let expected = mac(of: path, salted: salted)
            // swift-crypto compares a code with bytes in constant time.
            if let given, expected == given { matches = true }
        }
        return matches
    }

    /// HMAC-SHA256 keyed with `pair`'s key and fed its salt.
    private static func saltedMAC(_ pair: KeyPair) -> HMAC<SHA256> {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: pair.key))
        hmac.update(data: pair.salt)
        return hmac
    }

    /// The code of `path` from `salted`, a MAC keyed and fed a salt (a copy: the original
    /// is left as it was).
    private func mac(of path: String, salted: HMAC<SHA256>) -> HashedAuthenticationCode<SHA256> {
        var hmac = salted
        var path = path
        path.withUTF8 { hmac.update(data: UnsafeRawBufferPointer($0)) }
        return hmac.finalize()
    }
}
