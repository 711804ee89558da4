import Foundation
import WebImageCore

/// The JSON object `webimage get --json` prints for one URL (one object a line).
struct GetReport: Encodable {
    let url: String
    /// The cache key used (thumbnail and transformer keys included); nil when there is none.
    let key: String?
    /// `none` (downloaded), `memory` or `disk`.
    let cacheType: String
    let width: Int?
    let height: Int?
    let format: String?
    /// Frames in the source (1 for a still image; 0 when unknown).
    let frames: Int?
    /// Bytes written to the output file, else of the encoded data the image came from (0 when none).
    var bytes: Int
    /// Milliseconds from the request to its completion.
    let ms: Double
    /// Why it failed, without the URL (`load failed: bad status: status 404`); nil on success.
    var error: String?

    enum CodingKeys: String, CodingKey {
        case url, key, width, height, format, frames, bytes, ms, error
        case cacheType = "cache_type"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // Whole up to the downloader's URL limit; a longer (refused) URL is cut.
        let limit = ImageDownloaderConfiguration.defaultMaxURLLength
        try container.encode(URLText.abbreviated(url, limit: limit), forKey: .url)
        try container.encode(key.map { URLText.abbreviated($0, limit: limit) }, forKey: .key)
        try container.encode(cacheType, forKey: .cacheType)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(format, forKey: .format)
        try container.encode(frames, forKey: .frames)
        try container.encode(bytes, forKey: .bytes)
        try container.encode((ms * 10).rounded() / 10, forKey: .ms)
        try container.encode(error, forKey: .error)
    }

    /// Prints `report` as one line of JSON with sorted keys (nulls included).
    static func printLine(_ report: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }
}
