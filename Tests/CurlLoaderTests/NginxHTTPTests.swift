import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

extension CurlLoaderTests {
    @Suite("Curl loader against nginx", .ownThread)
    struct NginxHTTPTests {
        let loader = CurlLoaderFactory.loader
        let server: NginxServer

        init() throws {
            server = try NginxServer()
        }

        func request(_ path: String, https: Bool = false) -> LoadRequest {
            var request = LoadRequest(url: (https ? server.https : server.http) + path)
            request.options.insert(.allowInvalidCertificates)
            return request
        }

        @Test func http1Body() async throws {
            let (response, body, metrics) = try await loader.load(request("/static/large.bin"))
            #expect(response.statusCode == 200)
            #expect(response.httpVersion == "1.1")
            #expect(response.expectedContentLength == 1_000_000)
            #expect(response.headers["ETag"] != nil)
            #expect(body == server.files["large.bin"])
            #expect(metrics.httpVersion == "1.1")
            #expect(metrics.bytesReceived == 1_000_000)
            #expect(metrics.total >= metrics.firstByte)
        }

        /// The cookie jar is the process's: one test runs every step in order.
        @Test func cookiesAreStoredAndSentOnlyWithSendCookies() async throws {
            var plain = request("/set-cookie")
            _ = try await loader.load(plain)
            var cookies = request("/static/small.bin?after-plain")
            cookies.options.insert(.sendCookies)
            _ = try await loader.load(cookies)
            #expect(server.cookies(sentTo: "/static/small.bin?after-plain") == ["-"])

            cookies.url = server.http + "/set-cookie"
            _ = try await loader.load(cookies)
            cookies.url = server.http + "/static/small.bin?flagged"
            _ = try await loader.load(cookies)
            #expect(server.cookies(sentTo: "/static/small.bin?flagged") == ["webimage=yes"])
            plain.url = server.http + "/static/small.bin?unflagged"
            _ = try await loader.load(plain)
            #expect(server.cookies(sentTo: "/static/small.bin?unflagged") == ["-"])
        }

        @Test func bodyArrivesInSeveralChunks() async throws {
            let result = await LoadResult.collect(loader, request("/static/large.bin"))
            #expect(result.error == nil)
            #expect(result.chunks > 1)
            #expect(result.body.count == 1_000_000)
        }

        @Test func https2Body() async throws {
            let (response, body, metrics) = try await loader.load(request("/static/large.bin", https: true))
            #expect(response.statusCode == 200)
            #expect(response.httpVersion == "2")
            #expect(body == server.files["large.bin"])
            #expect(metrics.tls > .zero)
        }

        @Test func httpsWithHTTP2OffSpeaksHTTP1() async throws {
            var https1 = request("/static/small.bin", https: true)
            https1.options.remove(.allowHTTP2)
            let (response, body, _) = try await loader.load(https1)
            #expect(response.httpVersion == "1.1")
            #expect(body == server.files["small.bin"])
        }

        @Test func selfSignedCertificateIsRefusedUnlessAllowed() async {
            var strict = request("/static/small.bin", https: true)
            strict.options.remove(.allowInvalidCertificates)
            let result = await LoadResult.collect(loader, strict)
            #expect(result.error?.kind == .networkError)
            #expect(result.error?.nativeCode == 60)  // CURLE_PEER_FAILED_VERIFICATION
            #expect(result.body.isEmpty)
        }

        @Test func gzipIsDecoded() async throws {
            let (response, body, _) = try await loader.load(request("/static/text.txt"))
            #expect(response.headers["Content-Encoding"] == "gzip")
            #expect(body == server.files["text.txt"])
        }

        @Test func basicAuthentication() async throws {
            var authorized = request("/auth/secret.txt")
            authorized.credential = .init(user: NginxServer.user, password: NginxServer.password)
            let (response, body, _) = try await loader.load(authorized)
            #expect(response.statusCode == 200)
            #expect(body == Array("authorized".utf8))

            let (refused, _, _) = try await loader.load(request("/auth/secret.txt"))
            #expect(refused.statusCode == 401)
            #expect(refused.headers["WWW-Authenticate"] == "Basic realm=\"webimage\"")
        }

        @Test func redirectsAreFollowed() async throws {
            let (response, body, metrics) = try await loader.load(request("/redirect-twice"))
            #expect(response.statusCode == 200)
            #expect(response.url == server.http + "/static/small.bin")
            #expect(body == server.files["small.bin"])
            #expect(metrics.redirectCount == 2)
        }

        @Test func redirectLoopIsAnError() async {
            let result = await LoadResult.collect(loader, request("/loop"))
            #expect(result.error?.kind == .networkError)
            #expect(result.error?.nativeCode == 47)  // CURLE_TOO_MANY_REDIRECTS
        }

        @Test func statusCodesReachTheCaller() async throws {
            let (missing, _, _) = try await loader.load(request("/static/none.png"))
            #expect(missing.statusCode == 404)
            let (failed, body, _) = try await loader.load(request("/error"))
            #expect(failed.statusCode == 500)
            #expect(body == Array("boom".utf8))
        }

        @Test func slowResponseArrivesWhole() async throws {
            let started = ContinuousClock.now
            // nginx counts its rate limit in whole seconds and allows one second ahead, so N
            // bytes at R bytes a second can arrive in N / R - 2 seconds: 60,000 bytes at its
            // default 20 KB/s in under a second. At 15,000 B/s they take at least 2 s.
            let (_, body, _) = try await loader.load(request("/slow/slow.bin?rate=15000"))
            #expect(body == server.files["slow.bin"])
            #expect(ContinuousClock.now - started >= .milliseconds(1500))
        }

        @Test func etagGivesNotModified() async throws {
            let (first, _, _) = try await loader.load(request("/static/small.bin"))
            let etag = try #require(first.headers["ETag"])
            var conditional = request("/static/small.bin")
            conditional.headers["If-None-Match"] = etag
            let (second, body, _) = try await loader.load(conditional)
            #expect(second.statusCode == 304)
            #expect(body.isEmpty)
        }

        @Test func rangeStartGivesPartialContent() async throws {
            var ranged = request("/static/large.bin")
            ranged.rangeStart = 999_000
            let (response, body, _) = try await loader.load(ranged)
            #expect(response.statusCode == 206)
            #expect(response.headers["Content-Range"] == "bytes 999000-999999/1000000")
            #expect(body == Array(server.files["large.bin"]![999_000...]))
        }

        @Test func headSendsNoBody() async throws {
            var head = request("/static/large.bin")
            head.method = .head
            let (response, body, _) = try await loader.load(head)
            #expect(response.statusCode == 200)
            #expect(response.expectedContentLength == 1_000_000)
            #expect(body.isEmpty)
        }

        @Test func contentLengthOverTheLimitFailsBeforeTheBody() async {
            var limited = request("/static/large.bin")
            limited.maxBodySize = 100_000
            let result = await LoadResult.collect(loader, limited)
            #expect(result.error?.kind == .tooLarge)
            #expect(result.body.isEmpty)
        }

        @Test func connectionRefusedIsANetworkError() async throws {
            let port = try LoopbackPort.free()
            let result = await LoadResult.collect(loader, LoadRequest(url: "http://127.0.0.1:\(port)/"))
            #expect(result.error?.kind == .networkError)
            #expect(result.error?.nativeCode == 7)  // CURLE_COULDNT_CONNECT
            #expect(result.response == nil)
        }
    }
}
