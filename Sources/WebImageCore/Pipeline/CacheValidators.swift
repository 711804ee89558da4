import Foundation

/// The HTTP validators of a cached download (`ETag`, `Last-Modified`), kept in the disk
/// cache's extended data as `etag\nlast-modified` so a refresh can ask the server whether
/// the copy is current.
struct CacheValidators: Sendable, Hashable {
    var etag: String?
    var lastModified: String?

    init?(response: LoadResponse) {
        etag = response.headers["ETag"]
        lastModified = response.headers["Last-Modified"]
        if etag == nil && lastModified == nil { return nil }
    }

    init?(extendedData: Data) {
        let lines = String(decoding: extendedData, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 3, lines[0] == "webimage-validators-1" else { return nil }
        etag = lines[1].isEmpty ? nil : String(lines[1])
        lastModified = lines[2].isEmpty ? nil : String(lines[2])
        if etag == nil && lastModified == nil { return nil }
    }

    var extendedData: Data { Data("webimage-validators-1\n\(etag ?? "")\n\(lastModified ?? "")".utf8) }

    var downloadValidators: DownloadRequest.Validators {
        DownloadRequest.Validators(etag: etag, lastModified: lastModified)
    }
}
