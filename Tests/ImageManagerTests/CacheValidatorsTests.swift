import Foundation
import Testing

@testable import WebImageCore

/// The record kept with a cached download (``CacheValidators``) and the freshness its
/// response gives (``ResponseFreshness``).
@Suite("CacheValidators")
struct CacheValidatorsTests {
    /// 1994-11-06 08:49:37 UTC.
    static let date = "Sun, 06 Nov 1994 08:49:37 GMT"
    static let seconds = 784_111_777.0

    @Test(
        "the lifetime: s-maxage, else max-age, else Expires less Date; no-cache is 0; none without them",
        arguments: [
            ([("Cache-Control", "public, max-age=3600, s-maxage=60")], 60.0, false),
            ([("Cache-Control", "max-age=\"120\""), ("Expires", "Sun, 06 Nov 1994 09:49:37 GMT")], 120, false),
            ([("Cache-Control", "public"), ("cache-control", "MAX-AGE=30")], 30, false),
            ([("Expires", "Sun, 06 Nov 1994 09:49:37 GMT"), ("Date", date)], 3600, false),
            ([("Expires", "Sun, 06 Nov 1994 08:50:37 GMT")], 60, false),
            ([("Expires", "0")], 0, false),
            ([("Expires", "Sat, 05 Nov 1994 08:49:37 GMT"), ("Date", date)], 0, false),
            ([("Cache-Control", "no-cache, max-age=600")], 0, false),
            ([("Cache-Control", "max-age=soon")], 0, false),
            ([("Cache-Control", "no-store")], nil, true),
            ([("Content-Type", "image/png")], nil, false),
        ] as [([(String, String)], Double?, Bool)])
    func freshness(fields: [(String, String)], lifetime: Double?, noStore: Bool) {
        let headers = HTTPHeaders(fields.map { (name: $0.0, value: $0.1) })
        let freshness = ResponseFreshness(headers: headers, receivedAt: Self.seconds)
        #expect(freshness.lifetime == lifetime)
        #expect(freshness.noStore == noStore)
    }

    @Test("an HTTP date parses to seconds since 1970; another form is nil")
    func dates() {
        #expect(ResponseFreshness.parseDate(Self.date) == Self.seconds)
        #expect(ResponseFreshness.parseDate("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(ResponseFreshness.parseDate("Sun, 06 Nov 1994 08:49:37 GMT trailing") == nil)
    }

    @Test("a record keeps validators, storage time and lifetime through its extended data; fresh until it expires")
    func record() throws {
        let response = LoadResponse(
            statusCode: 200, headers: ["ETag": "\"a\"", "Last-Modified": Self.date, "Cache-Control": "max-age=10"],
            httpVersion: "1.1", url: "http://127.0.0.1/a.png")
        let record = CacheValidators(response: response, storedAt: 1000.5)
        #expect(
            String(decoding: record.extendedData, as: UTF8.self)
                == "webimage-validators-2\n\"a\"\n\(Self.date)\n1000.5\n10.0")
        let read = try #require(CacheValidators(extendedData: record.extendedData))
        #expect(read == record)
        #expect(read.downloadValidators == DownloadRequest.Validators(etag: "\"a\"", lastModified: Self.date))
        #expect(read.isFresh(at: 1010, defaultLifetime: 3600))
        #expect(!read.isFresh(at: 1010.5, defaultLifetime: 3600))
        let plain = CacheValidators(
            response: LoadResponse(statusCode: 200, headers: [:], httpVersion: "1.1", url: "http://127.0.0.1/b.png"),
            storedAt: 1000)
        #expect(plain.downloadValidators == nil)
        #expect(plain.isFresh(at: 1059, defaultLifetime: 60) && !plain.isFresh(at: 1060, defaultLifetime: 60))
        #expect(CacheValidators(extendedData: plain.extendedData) == plain)
    }

    @Test("a record of format 1 has validators and an unknown age (stale); other data is no record")
    func formatOne() throws {
        let old = try #require(CacheValidators(extendedData: Data("webimage-validators-1\n\"a\"\n".utf8)))
        #expect(old.etag == "\"a\"" && old.lastModified == nil && old.storedAt == nil)
        #expect(!old.isFresh(at: 0, defaultLifetime: 3600))
        #expect(CacheValidators(extendedData: Data("webimage-validators-1\n\n".utf8)) == nil)
        #expect(CacheValidators(extendedData: Data("etag: \"x\"".utf8)) == nil)
    }

    @Test("a 304 renews the record: stored again, its validators and lifetime replacing the stored ones")
    func renewed() throws {
        let response = LoadResponse(
            statusCode: 200, headers: ["ETag": "\"a\"", "Last-Modified": Self.date], httpVersion: "1.1",
            url: "http://127.0.0.1/a.png")
        let record = CacheValidators(response: response, storedAt: 1000)
        let same = record.renewed(by: nil, at: 2000)
        #expect(same.storedAt == 2000 && same.etag == "\"a\"" && same.lifetime == nil)
        let changed = record.renewed(by: ["ETag": "\"b\"", "Cache-Control": "max-age=5"], at: 3000)
        #expect(changed.etag == "\"b\"" && changed.lastModified == Self.date)
        #expect(changed.storedAt == 3000 && changed.lifetime == 5)
    }
}
