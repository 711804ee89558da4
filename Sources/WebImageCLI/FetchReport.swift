import FoundationEssentials
import WebImageCore

/// The JSON object `webimage fetch --json` prints for one URL (one object a line).
struct FetchReport: Encodable {
    let url: String
    /// The HTTP status; nil when no response arrived.
    let status: Int?
    /// `"1.1"`, `"2"`...; nil when not HTTP or no response.
    let httpVersion: String?
    /// Body bytes received (after content decoding); 0 when no body arrived.
    let bytesDownloaded: Int
    /// Bytes written to `file` (the body as it came); 0 when the URL failed or the write did.
    let bytesWritten: Int
    let contentType: String?
    let etag: String?
    /// The file written; nil when the URL failed.
    let file: String?
    /// Milliseconds from the request to its completion (queueing included).
    let ms: Double
    /// Why it failed; nil on success.
    let error: String?

    enum CodingKeys: String, CodingKey {
        case url, status, etag, file, ms, error
        case bytesDownloaded = "bytes_downloaded"
        case bytesWritten = "bytes_written"
        case httpVersion = "http_version"
        case contentType = "content_type"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // Whole up to the downloader's URL limit; a longer (refused) URL is cut.
        let limit = ImageDownloaderConfiguration.defaultMaxURLLength
        try container.encode(URLText.abbreviated(url, limit: limit), forKey: .url)
        try container.encode(status, forKey: .status)
        try container.encode(httpVersion, forKey: .httpVersion)
        try container.encode(bytesDownloaded, forKey: .bytesDownloaded)
        try container.encode(bytesWritten, forKey: .bytesWritten)
        try container.encode(contentType, forKey: .contentType)
        try container.encode(etag, forKey: .etag)
        try container.encode(file, forKey: .file)
        try container.encode((ms * 10).rounded() / 10, forKey: .ms)
        try container.encode(error, forKey: .error)
    }

    /// Prints `report` as one line of JSON with sorted keys (nulls included).
    static func printLine(_ report: FetchReport) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }
}
