import FoundationEssentials

/// The HTTP validators (`ETag`, `Last-Modified`) and the freshness of a cached download, kept
/// in the disk cache's extended data as `webimage-validators-2`, then one line each for the
/// ETag, the Last-Modified, when it was stored and its lifetime, so that a refresh
/// (``ImageManagerOptions/refreshCached``) or a stale copy (``ImageManagerOptions/revalidateStale``)
/// can ask the server whether the copy is current. Records of format 1 (the validators only)
/// are read too; their copy's age is unknown.
struct CacheValidators: Sendable, Hashable {
    var etag: String?
    var lastModified: String?
    /// When the copy was downloaded or last revalidated, seconds since 1970; nil when unknown
    /// (a record of format 1).
    var storedAt: Double?
    /// Seconds the copy stays fresh, as its response said (``ResponseFreshness/lifetime``);
    /// nil: it said nothing (the manager's default applies).
    var lifetime: Double?

    /// The record of a download answered with `response`, stored at `now` (seconds since 1970).
    init(response: LoadResponse, storedAt now: Double) {
        etag = response.headers["ETag"]
        lastModified = response.headers["Last-Modified"]
        storedAt = now
        lifetime = ResponseFreshness(headers: response.headers, receivedAt: now).lifetime
    }

    init?(extendedData: Data) {
        let lines = String(decoding: extendedData, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        switch (lines.first, lines.count) {
        case ("webimage-validators-1", 3):
            etag = lines[1].isEmpty ? nil : String(lines[1])
            lastModified = lines[2].isEmpty ? nil : String(lines[2])
            if etag == nil && lastModified == nil { return nil }
        case ("webimage-validators-2", 5):
            etag = lines[1].isEmpty ? nil : String(lines[1])
            lastModified = lines[2].isEmpty ? nil : String(lines[2])
            storedAt = Double(lines[3])
            lifetime = Double(lines[4])
        default:
            return nil
        }
    }

    var extendedData: Data {
        let fields = [etag ?? "", lastModified ?? "", storedAt.map { "\($0)" } ?? "", lifetime.map { "\($0)" } ?? ""]
        return Data((["webimage-validators-2"] + fields).joined(separator: "\n").utf8)
    }

    /// What a conditional request sends; nil when there is neither validator (the request is
    /// then unconditional).
    var downloadValidators: DownloadRequest.Validators? {
        if etag == nil && lastModified == nil { return nil }
        return DownloadRequest.Validators(etag: etag, lastModified: lastModified)
    }

    /// True while the copy is fresh at `now` (seconds since 1970): younger than its lifetime,
    /// or than `defaultLifetime` seconds when its response named none. A copy of unknown age is stale.
    func isFresh(at now: Double, defaultLifetime: Double) -> Bool {
        guard let storedAt else { return false }
        return now < storedAt + (lifetime ?? defaultLifetime)
    }

    /// The record after a 304 answer with `headers` at `now`: stored again at `now`, with the
    /// validators and lifetime the answer carries replacing the stored ones (RFC 9111 section 4.3.4).
    func renewed(by headers: HTTPHeaders?, at now: Double) -> CacheValidators {
        var renewed = self
        renewed.storedAt = now
        guard let headers else { return renewed }
        renewed.etag = headers["ETag"] ?? etag
        renewed.lastModified = headers["Last-Modified"] ?? lastModified
        renewed.lifetime = ResponseFreshness(headers: headers, receivedAt: now).lifetime ?? lifetime
        return renewed
    }
}
