internal import Crypto
import FoundationEssentials
import WebImageCore

/// A processed image as the server answers it and keeps it in its result caches: the encoded
/// bytes with their media type and HTTP validators.
public struct ServedImage: Sendable, Equatable {
    /// The encoded bytes.
    public var bytes: [UInt8]
    /// The media type (`image/webp`).
    public var contentType: String
    /// A strong entity tag, quoted: the first 128 bits of the bytes' SHA-256 in hexadecimal.
    public var entityTag: String
    /// When the result was made, in whole seconds since 1970 (`Last-Modified`).
    public var lastModified: Int64 {
        didSet { lastModifiedText = HTTPDate.format(lastModified) }
    }
    /// ``lastModified`` as an HTTP date, formatted once rather than at each answer.
    private(set) var lastModifiedText: String

    /// `bytes` served as `contentType`, made at `lastModified`.
    public init(bytes: [UInt8], contentType: String, lastModified: Int64) {
        self.bytes = bytes
        self.contentType = contentType
        self.lastModified = lastModified
        lastModifiedText = HTTPDate.format(lastModified)
        entityTag = "\"" + String(hexEncoding: SHA256.hash(data: bytes).prefix(16)) + "\""
    }

    /// What a disk or Redis entry keeps beside the bytes, as JSON.
    struct Metadata: Codable {
        var contentType: String
        var lastModified: Int64
    }

    /// The extended data of this result's disk entry.
    var extendedData: Data {
        (try? JSONEncoder().encode(Metadata(contentType: contentType, lastModified: lastModified))) ?? Data()
    }

    /// The result stored as `data` with `extendedData`; nil when the extended data is not ours.
    init?(data: Data, extendedData: Data?) {
        guard let extendedData, let metadata = try? JSONDecoder().decode(Metadata.self, from: extendedData) else {
            return nil
        }
        self.init(bytes: [UInt8](data), contentType: metadata.contentType, lastModified: metadata.lastModified)
    }
}
