import FoundationEssentials
import WebImageCore

/// The JSON object `webimage get --json` prints for one URL (one object a line).
struct GetReport: Encodable {
    let url: String
    /// The cache key used (thumbnail and transformer keys included); nil when there is none.
    let key: String?
    /// `none` (downloaded), `memory` or `disk`.
    let cacheType: String
    /// The width, height, format and frames of the file written (`-o`, `--output-dir`), else
    /// of the decoded image (pixels, after orientation, thumbnail and transformer).
    var width: Int?
    var height: Int?
    var format: String?
    /// Frames of the file written (1 for a still image), else in the source (0 when unknown: a
    /// memory hit of an animation).
    var frames: Int?
    /// Body bytes received from the network for this image (a download shared by identical
    /// requests counts for each); 0 for a memory or disk hit.
    let bytesDownloaded: Int
    /// Bytes of the file written (`-o`, `--output-dir`); 0 when none was written.
    var bytesWritten: Int
    /// Milliseconds from the request to its completion.
    let ms: Double
    /// Why it failed, without the URL (`load failed: bad status: status 404`); nil on success.
    var error: String?

    enum CodingKeys: String, CodingKey {
        case url, key, width, height, format, frames, ms, error
        case cacheType = "cache_type"
        case bytesDownloaded = "bytes_downloaded"
        case bytesWritten = "bytes_written"
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
        try container.encode(bytesDownloaded, forKey: .bytesDownloaded)
        try container.encode(bytesWritten, forKey: .bytesWritten)
        try container.encode((ms * 10).rounded() / 10, forKey: .ms)
        try container.encode(error, forKey: .error)
    }

    /// Describes the file written instead of the decoded image.
    mutating func describe(_ written: GetImageWriter.Written) {
        bytesWritten = written.byteCount
        guard let info = written.info else { return }
        width = info.orientedWidth
        height = info.orientedHeight
        format = info.format
        frames = info.frameCount
    }

    /// Prints `report` as one line of JSON with sorted keys (nulls included).
    static func printLine(_ report: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }
}
