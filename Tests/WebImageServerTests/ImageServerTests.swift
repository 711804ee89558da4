import Foundation
import Synchronization
import Testing
import WebImageCore
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `webimage serve` started by the tests on 127.0.0.1, its sources on a real nginx (on
/// loopback, so the server runs with `--allow-private-sources` except where the guard is the
/// subject), asked through curl.
@Suite("webimage serve")
struct ImageServerTests {
    static let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"
    static let rotatedKey = "0123456789abcdef0123456789abcdef"
    static let rotatedSalt = "fedcba9876543210"
    /// The signing flags of both pairs.
    static let signing = ["--key", key, "--salt", salt, "--key", rotatedKey, "--salt", rotatedSalt]

    /// nginx with the test images: a 61×43 JPEG, a 37×12 PNG with alpha, an 8×6 animated GIF.
    static func origin() throws -> NginxServer {
        try NginxServer(files: [
            "photo.jpg": try Fixture.bytes("jpeg/baseline.jpg"),
            "alpha.png": try Fixture.bytes("png/filtered-rgba8.png"),
            "anim.gif": try Fixture.bytes("gif/anim.gif"),
        ])
    }

    /// `path` signed with `key` and `salt` by OpenSSL, independently of the server's signer.
    static func signed(_ path: String, key: String = key, salt: String = salt) throws -> String {
        "/" + (try OpenSSLSignature.signature(of: path, keyHex: key, saltHex: salt)) + path
    }

    /// Width, height, format and frame count of an answer's image, probed by the bundled coders.
    static func probe(_ body: [UInt8], server: ImageServerProcess) throws -> (Int, Int, String, Int) {
        let host = PluginHost(
            searchPath: PluginSearchPath(directories: [server.plugins.path], trustedDirectories: [server.plugins.path]))
        let info = try host.makeCodersManager().probe(body)
        return (info.width, info.height, info.format, info.frameCount)
    }

    /// How many requests for `path` nginx answered, waiting 2 seconds for one more than
    /// expected to show in its log (nginx logs a request after answering it).
    static func originRequests(_ origin: NginxServer, _ path: String) -> Int {
        origin.requests(matching: path, atLeast: 2, within: .seconds(2)).count
    }

    /// Waits up to 30 seconds for `count` originals in the disk cache `cache` (entry files of
    /// the namespace `originals`; the manager writes them after answering).
    static func waitForOriginals(_ cache: TemporaryDirectory, count: Int) throws -> Bool {
        let folder = cache.file("originals")
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            if names.filter({ !$0.hasPrefix(".") }).count >= count { return true }
            usleep(20_000)
        }
        return false
    }

    /// Waits up to 30 seconds for the server's `/metrics` to show `series` at `value`.
    static func waitForMetric(_ server: ImageServerProcess, _ series: String, _ value: Double) throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if metric(try HTTPExchange.send(server.baseURL + "/metrics").text, series) == value { return true }
            usleep(20_000)
        }
        return false
    }

    /// The counter `name{labels}` in a `/metrics` text; nil when absent.
    static func metric(_ text: String, _ series: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test("a URL signed with either configured pair is served; tampered paths and other keys are 403")
    func signatures() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let server = try ImageServerProcess(Self.signing + ["--allow-private-sources"])
            let path = "/rs:fit:30:30/plain/\(origin.http)/static/photo.jpg@png"
            for (key, salt) in [(Self.key, Self.salt), (Self.rotatedKey, Self.rotatedSalt)] {
                let answer = try HTTPExchange.send(server.baseURL + (try Self.signed(path, key: key, salt: salt)))
                #expect(answer.status == 200)
                #expect(answer.headers["content-type"] == "image/png")
            }
            let good = try Self.signed(path)
            let signature = good.split(separator: "/")[0]
            for tampered in [
                "/\(signature)/rs:fit:31:30/plain/\(origin.http)/static/photo.jpg@png",
                "/\(signature)/rs:fit:30:30/plain/\(origin.http)/static/alpha.png@png",
                "/\(signature)/rs:fit:30:30/plain/\(origin.http)/static/photo.jpg@webp",
                "/insecure/rs:fit:30:30/plain/\(origin.http)/static/photo.jpg@png",
                try Self.signed(path, key: "00", salt: "00"),
            ] {
                let answer = try HTTPExchange.send(server.baseURL + tampered)
                #expect(answer.status == 403, "\(tampered)")
                #expect(answer.text == "invalid signature\n")
            }
            // A forged URL with a bad option is refused for its signature first.
            #expect(try HTTPExchange.send(server.baseURL + "/x/bogus:1/plain/http://a/b.jpg").status == 403)
            #expect(Self.originRequests(origin, "/static/photo.jpg") == 1)
        }
    }

    @Test("starting without a key is refused on one line unless unsigned URLs are allowed")
    func noKey() async throws {
        try await onOwnThread {
            let plugins = try PluginsFolder()
            try plugins.addAllBundled()
            let run = try MeasuredProcess.run(
                try BuildProducts.executable.path, ["serve", "--listen", "127.0.0.1:0", "--plugin-path", plugins.path],
                timeLimit: .seconds(60))
            #expect(run.exitStatus == 1)
            #expect(
                run.errorLines == [
                    "error: no signing key: give --key HEX --salt HEX (or WEBIMAGE_SERVE_KEY and WEBIMAGE_SERVE_SALT), "
                        + "or --allow-unsigned to accept unsigned URLs"
                ])
            let odd = try MeasuredProcess.run(
                try BuildProducts.executable.path,
                ["serve", "--plugin-path", plugins.path, "--key", Self.key, "--salt", Self.salt, "--key", "00"],
                timeLimit: .seconds(60))
            #expect(odd.errorLines == ["error: 2 keys but 1 salts: give one --salt for each --key"])
        }
    }

    @Test("sizes, extensions and Accept: exact sizes and formats, Vary only when negotiated")
    func formats() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let server = try ImageServerProcess(["--allow-unsigned", "--allow-private-sources"])
            let source = "plain/\(origin.http)/static"
            let cases: [(path: String, accept: String?, size: (Int, Int), format: String, frames: Int, vary: Bool)] = [
                ("/insecure/rs:fit:30:30/\(source)/photo.jpg", nil, (30, 21), "jpeg", 1, true),
                ("/insecure/resize:fit:30:30/\(source)/photo.jpg", "image/webp,*/*", (30, 21), "webp", 1, true),
                ("/insecure/rs:fit:30:30/\(source)/photo.jpg", "image/*,*/*;q=0.8", (30, 21), "jpeg", 1, true),
                ("/insecure/rs:fit:30:30/\(source)/photo.jpg", "image/webp;q=0", (30, 21), "jpeg", 1, true),
                ("/insecure/rs:fit:30:30/\(source)/photo.jpg@png", "image/webp", (30, 21), "png", 1, false),
                ("/insecure/f:gif/rs:fit:30:30/\(source)/photo.jpg", nil, (30, 21), "gif", 1, false),
                ("/insecure/\(source)/alpha.png", nil, (37, 12), "png", 1, true),
                ("/insecure/\(source)/anim.gif", nil, (8, 6), "gif", 4, true),
                ("/insecure/\(source)/anim.gif", "image/webp", (8, 6), "webp", 4, true),
                ("/insecure/rot:90/\(source)/photo.jpg@png", nil, (43, 61), "png", 1, false),
                ("/insecure/rs:fit:100:100:1/\(source)/photo.jpg@png", nil, (100, 70), "png", 1, false),
            ]
            for item in cases {
                let answer = try HTTPExchange.send(
                    server.baseURL + item.path, headers: item.accept.map { ["Accept": $0] } ?? [:])
                #expect(answer.status == 200, "\(item.path): \(answer.text.prefix(200))")
                guard answer.status == 200 else { continue }
                let (width, height, format, frames) = try Self.probe(answer.body, server: server)
                #expect((width, height) == item.size, "\(item.path)")
                #expect(format == item.format, "\(item.path)")
                #expect(frames == item.frames, "\(item.path)")
                #expect((answer.headers["vary"] == "Accept") == item.vary, "\(item.path)")
            }
            let unknown = try HTTPExchange.send(server.baseURL + "/insecure/bogus:1/\(source)/photo.jpg")
            #expect(unknown.status == 400)
            #expect(unknown.text == "unknown option 'bogus' in 'bogus:1'\n")
            #expect(unknown.headers["cache-control"] == "public, max-age=10")
            let badFormat = try HTTPExchange.send(server.baseURL + "/insecure/\(source)/photo.jpg@tiff")
            #expect(badFormat.status == 400)
            #expect(badFormat.text == "unsupported output format 'tiff'\n")
        }
    }

    @Test("ETag, 304, HEAD, Cache-Control, Last-Modified; repeats come from memory without another fetch")
    func httpCaching() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let server = try ImageServerProcess([
                "--allow-unsigned", "--allow-private-sources", "--cache-control-max-age", "600",
            ])
            let url = server.baseURL + "/insecure/rs:fit:30:30/plain/\(origin.http)/static/photo.jpg@webp"
            let first = try HTTPExchange.send(url)
            #expect(first.status == 200)
            #expect(first.headers["cache-control"] == "public, max-age=600")
            #expect(first.headers["server-timing"]?.hasPrefix("cache;desc=miss, total;dur=") == true)
            let tag = try #require(first.headers["etag"])
            #expect(tag.count == 34 && tag.hasPrefix("\"") && tag.hasSuffix("\""))
            #expect(first.headers["last-modified"]?.hasSuffix(" GMT") == true)
            #expect(first.headers["content-length"] == String(first.body.count))
            let second = try HTTPExchange.send(url)
            #expect(second.body == first.body)
            #expect(second.headers["etag"] == tag)
            #expect(second.headers["server-timing"]?.hasPrefix("cache;desc=memory") == true)
            let notModified = try HTTPExchange.send(url, headers: ["If-None-Match": "\"other\", \(tag)"])
            #expect(notModified.status == 304)
            #expect(notModified.body.isEmpty)
            #expect(notModified.headers["etag"] == tag)
            let stale = try HTTPExchange.send(url, headers: ["If-None-Match": "\"other\""])
            #expect(stale.status == 200)
            let head = try HTTPExchange.send(url, method: "HEAD")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.headers["content-length"] == String(first.body.count))
            #expect(head.headers["content-type"] == "image/webp")
            let post = try HTTPExchange.send(url, method: "POST")
            #expect(post.status == 405)
            #expect(post.headers["allow"] == "GET, HEAD")
            #expect(Self.originRequests(origin, "/static/photo.jpg") == 1)
        }
    }

    @Test(
        "memory hits answered on the connection: the responder's headers, pipelined answers in order, logged and counted"
    )
    func memoryHitsOnTheConnection() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let server = try ImageServerProcess(["--allow-unsigned", "--allow-private-sources"])
            let hit = "/insecure/rs:fit:30:30/plain/\(origin.http)/static/photo.jpg"
            let miss = "/insecure/rs:fit:20:20/plain/\(origin.http)/static/photo.jpg@png"
            let first = try HTTPExchange.send(server.baseURL + hit)
            #expect(first.headers["server-timing"]?.hasPrefix("cache;desc=miss") == true)
            let tag = try #require(first.headers["etag"])
            // A miss, then three hits, written at once: each hit waits for the miss's answer.
            let answers = try PipelinedHTTP.exchange(
                port: server.port,
                [
                    .init("GET", miss), .init("GET", hit), .init("GET", hit, headers: ["If-None-Match": tag]),
                    .init("HEAD", hit),
                ])
            #expect(answers.map(\.status) == [200, 200, 304, 200])
            #expect(
                answers.map { $0.headers["server-timing"]?.split(separator: ",").first }
                    == ["cache;desc=miss", "cache;desc=memory", "cache;desc=memory", "cache;desc=memory"])
            let (width, height, format, _) = try Self.probe(answers[0].body, server: server)
            #expect([width, height] == [20, 14] && format == "png")
            #expect(answers[1].body == first.body)
            #expect(answers[2].body.isEmpty && answers[3].body.isEmpty)
            // The hit carries the responder's headers for the same image.
            for name in ["content-type", "etag", "last-modified", "cache-control", "vary", "content-length", "server"] {
                #expect(answers[1].headers[name] == first.headers[name], "\(name)")
            }
            #expect(answers[2].headers["content-type"] == nil)
            #expect(answers[3].headers["content-length"] == String(first.body.count))
            #expect(answers[1].headers["date"]?.hasSuffix(" GMT") == true)
            let logged = "/-/rs:fit:30:30/plain/\(origin.http)/static/photo.jpg"
            let lines = server.accessLines(waitingFor: 4) { $0.contains(" \(logged) ") }.filter {
                $0.contains(" \(logged) ")
            }
            #expect(lines.count == 4)
            #expect(lines.filter { $0.hasSuffix("ms memory") }.count == 3)
            #expect(lines.contains { $0.contains("HEAD \(logged) 200 0 ") })
            #expect(try Self.waitForMetric(server, "webimage_serve_results_total{tier=\"memory\"}", 3))
            #expect(Self.originRequests(origin, "/static/photo.jpg") == 1)
        }
    }

    @Test(
        "a memory hit asked with Connection: close is answered in full and the connection closed, pipelined or not"
    )
    func memoryHitsThatCloseTheConnection() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let server = try ImageServerProcess(["--allow-unsigned", "--allow-private-sources"])
            let hit = "/insecure/rs:fit:30:30/plain/\(origin.http)/static/photo.jpg"
            let first = try HTTPExchange.send(server.baseURL + hit)
            #expect(first.status == 200)
            let requests: [[PipelinedHTTP.Request]] = [
                [.init("GET", hit, headers: ["Connection": "close"])],
                [.init("GET", hit), .init("HEAD", hit, headers: ["Connection": "close"])],
            ]
            for sent in requests {
                let answers = try PipelinedHTTP.exchangeUntilClosed(port: server.port, sent)
                #expect(answers.map(\.status) == sent.map { _ in 200 })
                #expect(
                    answers.map { $0.headers["server-timing"]?.hasPrefix("cache;desc=memory") }
                        == sent.map { _ in true })
                #expect(answers.first?.body == first.body)
                #expect(answers.last?.headers["content-length"] == String(first.body.count))
            }
            #expect(try Self.waitForMetric(server, "webimage_serve_results_total{tier=\"memory\"}", 3))
            #expect(Self.originRequests(origin, "/static/photo.jpg") == 1)
        }
    }

    @Test(
        "an HTTP/1.0 request without keep-alive is answered and the connection closed (miss, hit, health); with keep-alive it stays open"
    )
    func http10ClosesTheConnection() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let server = try ImageServerProcess(["--allow-unsigned", "--allow-private-sources"])
            let image = "/insecure/rs:fit:30:30/plain/\(origin.http)/static/photo.jpg"
            let sent: [[PipelinedHTTP.Request]] = [
                [.init("GET", image, version: "HTTP/1.0")],
                [.init("GET", image, version: "HTTP/1.0")],
                [.init("GET", "/health", version: "HTTP/1.0")],
                [
                    .init("GET", image, headers: ["Connection": "keep-alive"], version: "HTTP/1.0"),
                    .init("HEAD", image, version: "HTTP/1.0"),
                ],
            ]
            var answers: [[HTTPExchange]] = []
            for requests in sent { answers.append(try PipelinedHTTP.exchangeUntilClosed(port: server.port, requests)) }
            #expect(answers.map { $0.map(\.status) } == [[200], [200], [200], [200, 200]])
            #expect(
                answers.map { $0.map { $0.headers["server-timing"]?.split(separator: ",").first } }
                    == [["cache;desc=miss"], ["cache;desc=memory"], [nil], ["cache;desc=memory", "cache;desc=memory"]])
            #expect(answers[1][0].body == answers[0][0].body && !answers[0][0].body.isEmpty)
            #expect(answers[3][1].body.isEmpty)
            #expect(Self.originRequests(origin, "/static/photo.jpg") == 1)
        }
    }

    @Test("results and originals survive a restart on disk: no second fetch, another size from the original")
    func restart() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let cache = try TemporaryDirectory()
            let arguments = ["--allow-unsigned", "--allow-private-sources", "--cache-dir", cache.path]
            let url = "/insecure/rs:fit:30:30/plain/\(origin.http)/static/photo.jpg@png"
            let first: HTTPExchange
            do {
                let server = try ImageServerProcess(arguments)
                first = try HTTPExchange.send(server.baseURL + url)
                #expect(first.status == 200)
                #expect(server.stop() == 0)
            }
            let server = try ImageServerProcess(arguments)
            let again = try HTTPExchange.send(server.baseURL + url)
            #expect(again.headers["server-timing"]?.hasPrefix("cache;desc=disk") == true)
            #expect(again.body == first.body)
            #expect(again.headers["etag"] == first.headers["etag"])
            let other = try HTTPExchange.send(
                server.baseURL + "/insecure/rs:fit:20:20/plain/\(origin.http)/static/photo.jpg@png")
            #expect(other.headers["server-timing"]?.hasPrefix("cache;desc=miss") == true)
            #expect(try Self.probe(other.body, server: server).0 == 20)
            #expect(Self.originRequests(origin, "/static/photo.jpg") == 1)
        }
    }

    @Test(
        "a stale original is revalidated: fresh, no request; stale, one 304 and the kept bytes; changed, one 200 and the new image"
    )
    func revalidation() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let cache = try TemporaryDirectory()
            // 2 seconds of freshness, longer in slow builds (make tsan), where the first answers
            // alone can take that long.
            let freshness = UInt32(2 * HangBound.scale)
            let server = try ImageServerProcess([
                "--allow-unsigned", "--allow-private-sources", "--cache-dir", cache.path, "--source-max-age",
                String(freshness),
            ])
            func size(_ box: Int) throws -> (Int, Int) {
                let answer = try HTTPExchange.send(
                    server.baseURL + "/insecure/rs:fit:\(box):\(box)/plain/\(origin.http)/static/photo.jpg@png")
                #expect(answer.status == 200)
                #expect(answer.headers["server-timing"]?.hasPrefix("cache;desc=miss") == true)
                let (width, height, _, _) = try Self.probe(answer.body, server: server)
                return (width, height)
            }
            func statuses(_ count: Int) -> [String] {
                origin.requests(matching: "/static/photo.jpg", atLeast: count + 1, within: .seconds(1)).map {
                    String($0.split(separator: "|").last ?? "")
                }
            }
            #expect(try size(30) == (30, 21))
            #expect(try Self.waitForOriginals(cache, count: 1))
            // Within the freshness: from the kept original, no request.
            #expect(try size(20) == (20, 14))
            #expect(statuses(1) == ["200"])
            sleep(freshness + 1)
            // Stale: one conditional request, answered 304; the kept original is used.
            #expect(try size(40) == (40, 28))
            #expect(statuses(2) == ["200", "304"])
            // The source changes (new bytes, a later date): a 200 and the new image (turned by
            // its EXIF orientation, so taller than wide).
            try origin.replace("photo.jpg", with: try Fixture.bytes("jpeg/orientation-6.jpg"))
            sleep(freshness + 1)
            #expect(try size(50) == (35, 50))
            #expect(statuses(3) == ["200", "304", "200"])
            let metrics = try HTTPExchange.send(server.baseURL + "/metrics").text
            #expect(Self.metric(metrics, "webimage_serve_origin_fetches_total") == 2)
            #expect(Self.metric(metrics, "webimage_serve_origin_revalidations_total{outcome=\"not_modified\"}") == 1)
            #expect(Self.metric(metrics, "webimage_serve_origin_revalidations_total{outcome=\"modified\"}") == 1)
            #expect(Self.metric(metrics, "webimage_serve_results_total{tier=\"miss\"}") == 4)
        }
    }

    @Test("the origin's Cache-Control and Expires set an original's freshness: s-maxage, max-age, no-cache, no-store")
    func sourceFreshness() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let cache = try TemporaryDirectory()
            // The default --source-max-age (an hour) for sources without a lifetime of their own.
            let server = try ImageServerProcess([
                "--allow-unsigned", "--allow-private-sources", "--cache-dir", cache.path,
            ])
            let locations = ["/static/", "/expires-1s/", "/s-maxage-1s/", "/no-cache/", "/no-store/"]
            func get(_ location: String, _ box: Int) throws {
                let answer = try HTTPExchange.send(
                    server.baseURL + "/insecure/rs:fit:\(box):\(box)/plain/\(origin.http)\(location)photo.jpg@png")
                #expect(answer.status == 200, "\(location)")
                #expect(try Self.probe(answer.body, server: server).0 == box, "\(location)")
            }
            for location in locations { try get(location, 30) }
            // Every original but the no-store one is kept.
            #expect(try Self.waitForOriginals(cache, count: 4))
            sleep(2)
            for location in locations { try get(location, 20) }
            // The static file is fresh for an hour: no request; expires 1 s (max-age=1), s-maxage
            // 1 s (over max-age 3600) and no-cache are revalidated: 304; no-store is fetched again.
            let expected = [
                "/static/": ["200"], "/expires-1s/": ["200", "304"], "/s-maxage-1s/": ["200", "304"],
                "/no-cache/": ["200", "304"], "/no-store/": ["200", "200"],
            ]
            for location in locations {
                let count = expected[location]!.count
                let log = origin.requests(matching: location + "photo.jpg", atLeast: count + 1, within: .seconds(1))
                #expect(log.map { String($0.split(separator: "|").last ?? "") } == expected[location]!, "\(location)")
            }
            let metrics = try HTTPExchange.send(server.baseURL + "/metrics").text
            #expect(Self.metric(metrics, "webimage_serve_origin_fetches_total") == 6)
            #expect(Self.metric(metrics, "webimage_serve_origin_revalidations_total{outcome=\"not_modified\"}") == 3)
            #expect(Self.metric(metrics, "webimage_serve_origin_revalidations_total{outcome=\"modified\"}") == nil)
        }
    }

    @Test("100 identical requests at once make one origin request; the metrics count them")
    func coalescing() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let server = try ImageServerProcess(["--allow-unsigned", "--allow-private-sources"])
            // 600 bytes a second: the 5 KB source takes seconds, so every request arrives while it loads.
            let url = server.baseURL + "/insecure/rs:fit:30:30/plain/\(origin.http)/slow/photo.jpg%3Frate=300@png"
            let output = try ChildProcess.output(
                of: "/usr/bin/curl",
                ["-s", "--parallel", "--parallel-immediate", "--parallel-max", "100", "-w", "%{http_code}\n"]
                    + Array(repeating: ["-o", "/dev/null", url], count: 100).flatMap { $0 })
            let statuses = String(decoding: output, as: UTF8.self).split(separator: "\n")
            #expect(statuses.count == 100)
            #expect(statuses.allSatisfy { $0 == "200" })
            #expect(Self.originRequests(origin, "/slow/photo.jpg") == 1)
            let metrics = try HTTPExchange.send(server.baseURL + "/metrics").text
            #expect(Self.metric(metrics, "webimage_serve_origin_fetches_total") == 1)
            let coalesced = Self.metric(metrics, "webimage_serve_coalesced_requests_total") ?? 0
            let misses = Self.metric(metrics, "webimage_serve_results_total{tier=\"miss\"}") ?? 0
            let memory = Self.metric(metrics, "webimage_serve_results_total{tier=\"memory\"}") ?? 0
            #expect(misses == 100 - memory)
            #expect(coalesced == misses - 1)
            #expect(Self.metric(metrics, "webimage_serve_requests_total{status=\"200\"}") == 100)
        }
    }

    @Test("a full queue answers 503 with Retry-After at once; a slow request is 504")
    func overload() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let server = try ImageServerProcess([
                "--allow-unsigned", "--allow-private-sources", "--max-concurrent", "1", "--max-queue", "1",
                "--request-timeout", "4",
            ])
            // Distinct sources at 100 bytes a second: the 1 KB image takes 10 seconds.
            let url = { @Sendable (n: Int) in
                server.baseURL + "/insecure/plain/\(origin.http)/slow/photo.jpg%3Frate=100%26n=\(n)@png"
            }
            let answers = TrackedMutex<[Int: HTTPExchange]>([:])
            let running = Thread { answers.withLock { $0[1] = try? HTTPExchange.send(url(1)) } }
            running.start()
            #expect(try Self.waitForMetric(server, "webimage_serve_processing", 1))
            let waiting = Thread { answers.withLock { $0[2] = try? HTTPExchange.send(url(2)) } }
            waiting.start()
            var depth: Double?
            for _ in 0..<300 where depth != 1 {
                depth = Self.metric(
                    try HTTPExchange.send(server.baseURL + "/metrics").text, "webimage_serve_queue_depth")
                if depth != 1 { usleep(10_000) }
            }
            #expect(depth == 1)
            let refused = try HTTPExchange.send(url(3))
            #expect(refused.status == 503)
            #expect(refused.headers["retry-after"] == "1")
            #expect(refused.text == "too many requests waiting; try again\n")
            var finished: [Int: HTTPExchange] = [:]
            for _ in 0..<3000 where finished.count < 2 {
                finished = answers.withLock { $0 }
                if finished.count < 2 { usleep(10_000) }
            }
            #expect(finished[1]?.status == 504)
            #expect(finished[2]?.status == 504)
            #expect(finished[1]?.text == "the request took longer than 4 seconds\n")
            let metrics = try HTTPExchange.send(server.baseURL + "/metrics").text
            #expect(Self.metric(metrics, "webimage_serve_overload_refusals_total") == 1)
            #expect(Self.metric(metrics, "webimage_serve_requests_total{status=\"504\"}") == 2)
            #expect(origin.requests(matching: "n=3", atLeast: 0).isEmpty)
        }
    }

    @Test("SIGTERM lets a request in flight finish, then the server exits 0")
    func gracefulShutdown() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let server = try ImageServerProcess(["--allow-unsigned", "--allow-private-sources"])
            let url = server.baseURL + "/insecure/plain/\(origin.http)/slow/photo.jpg%3Frate=250@png"
            let answer = TrackedMutex<HTTPExchange?>(nil)
            let request = Thread { answer.withLock { $0 = try? HTTPExchange.send(url) } }
            request.start()
            // The source takes 4 seconds to come.
            #expect(try Self.waitForMetric(server, "webimage_serve_processing", 1))
            #expect(server.stop(signal: SIGTERM) == 0)
            let finished = try #require(answer.withLock { $0 })
            #expect(finished.status == 200)
            #expect(try Self.probe(finished.body, server: server).0 == 61)
        }
    }

    @Test("two servers a test starts without --cache-dir share no results: each caches in a folder of its own")
    func serversOfTestsShareNoCache() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let path = "/insecure/plain/\(origin.http)/static/photo.jpg@png"
            for round in 1...2 {
                let server = try ImageServerProcess(["--allow-unsigned", "--allow-private-sources"])
                let folder = try #require(server.ownCacheFolder)
                let answer = try HTTPExchange.send(server.baseURL + path)
                #expect(answer.status == 200)
                #expect(answer.headers["server-timing"]?.hasPrefix("cache;desc=miss,") == true, "round \(round)")
                #expect(try Self.waitForOriginals(folder, count: 1))
                #expect(Self.originRequests(origin, "/static/photo.jpg") == round)
            }
        }
    }

    @Test("sources on loopback are refused by default before any connection")
    func privateSourceRefused() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let server = try ImageServerProcess(["--allow-unsigned"])
            let answer = try HTTPExchange.send(server.baseURL + "/insecure/plain/\(origin.http)/static/photo.jpg")
            #expect(answer.status == 403)
            #expect(answer.text.hasPrefix("source refused: "))
            #expect(origin.requests(matching: "/static/photo.jpg", atLeast: 0).isEmpty)
        }
    }

    @Test("--allow-source prefixes hold for the source and its redirects; the server's own address is refused")
    func sourcePrefixes() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let server = try ImageServerProcess([
                "--allow-unsigned", "--allow-private-sources", "--allow-source", "\(origin.http)/static/",
                "--allow-source", "\(origin.http)/redirect-twice",
            ])
            let allowed = try HTTPExchange.send(server.baseURL + "/insecure/plain/\(origin.http)/static/photo.jpg@png")
            #expect(allowed.status == 200)
            let outside = try HTTPExchange.send(server.baseURL + "/insecure/plain/\(origin.http)/as/photo.jpg/x.jpg")
            #expect(outside.status == 403)
            #expect(
                outside.text
                    == "source refused: \(origin.http)/as/photo.jpg/x.jpg is not under an allowed source prefix\n")
            let lookalike = try HTTPExchange.send(
                server.baseURL + "/insecure/plain/\(origin.http)/static%2F..%2Fas/photo.jpg/x.jpg")
            #expect(lookalike.status == 403)
            // /redirect-twice answers 301 to /redirect, outside both prefixes.
            let redirected = try HTTPExchange.send(server.baseURL + "/insecure/plain/\(origin.http)/redirect-twice")
            #expect(redirected.status == 403)
            #expect(
                redirected.text
                    == "source refused: the redirect to \(origin.http)/redirect is not under an allowed source prefix\n"
            )
            #expect(origin.requests(matching: "/as/", atLeast: 0).isEmpty)
            // A source pointing back at the server itself is refused even with private sources allowed.
            let own = try ImageServerProcess(["--allow-unsigned", "--allow-private-sources"])
            let loop = try HTTPExchange.send(own.baseURL + "/insecure/plain/\(own.baseURL)/health")
            #expect(loop.status == 403)
            #expect(loop.text.contains("is a denied address"))
            let ownLines = own.accessLines(waitingFor: 1) { $0.contains(" 403 ") }
            #expect(ownLines.filter { $0.contains(" 403 ") }.count == 1)
            #expect(ownLines.filter { $0.contains("GET /health") }.isEmpty)
        }
    }

    @Test("the source's size and the decode limits hold: one 422 each, nothing kept")
    func limits() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let server = try ImageServerProcess([
                "--allow-unsigned", "--allow-private-sources", "--max-source-bytes", "1000", "--max-pixels", "400",
            ])
            // The JPEG is 1,026 bytes; the PNG 2,600 bytes; a 37×12 image has 444 pixels.
            let large = try HTTPExchange.send(server.baseURL + "/insecure/plain/\(origin.http)/static/photo.jpg@png")
            #expect(large.status == 422)
            #expect(large.text.hasPrefix("source too large: "))
            let pixels = try Self.origin()
            let limited = try ImageServerProcess([
                "--allow-unsigned", "--allow-private-sources", "--max-pixels", "400",
            ])
            let tooMany = try HTTPExchange.send(limited.baseURL + "/insecure/plain/\(pixels.http)/static/alpha.png@png")
            #expect(tooMany.status == 422)
            #expect(tooMany.text.hasPrefix("decode failed: "))
            let again = try HTTPExchange.send(limited.baseURL + "/insecure/plain/\(pixels.http)/static/alpha.png@png")
            #expect(again.status == 422)
        }
    }

    @Test("/health answers ok; /metrics counts answers by status and bytes")
    func healthAndMetrics() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let server = try ImageServerProcess(["--allow-unsigned", "--allow-private-sources"])
            let health = try HTTPExchange.send(server.baseURL + "/health")
            #expect(health.status == 200)
            #expect(health.text == "ok\n")
            let image = try HTTPExchange.send(server.baseURL + "/insecure/plain/\(origin.http)/static/photo.jpg@png")
            _ = try HTTPExchange.send(server.baseURL + "/insecure/plain/\(origin.http)/static/missing.jpg")
            let metrics = try HTTPExchange.send(server.baseURL + "/metrics")
            #expect(metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
            #expect(Self.metric(metrics.text, "webimage_serve_requests_total{status=\"200\"}") == 1)
            #expect(Self.metric(metrics.text, "webimage_serve_requests_total{status=\"404\"}") == 1)
            #expect(Self.metric(metrics.text, "webimage_serve_response_bytes_total") == Double(image.body.count))
            #expect(
                Self.metric(metrics.text, "webimage_serve_source_bytes_total")
                    == Double(try Fixture.bytes("jpeg/baseline.jpg").count))
            #expect(Self.metric(metrics.text, "webimage_serve_queue_depth") == 0)
            #expect(Self.metric(metrics.text, "webimage_serve_request_duration_seconds_count") == 2)
            // One access line per image request, without the signature segment.
            let lines = server.accessLines(waitingFor: 4)
            #expect(lines.contains { $0.contains("/static/missing.jpg 404 ") })
            let imageLine = lines.first { $0.contains("photo.jpg") }
            #expect(
                imageLine?.contains("GET /-/plain/\(origin.http)/static/photo.jpg@png 200 \(image.body.count) ") == true
            )
            #expect(imageLine?.hasSuffix(" miss") == true)
            #expect(lines.contains { $0.contains("GET /health 200 3 ") })
        }
    }

    @Test("results in Redis with --redis-url")
    func redisResults() async throws {
        try await onOwnThread {
            let origin = try Self.origin()
            let redis = try RedisServer()
            let server = try ImageServerProcess([
                "--allow-unsigned", "--allow-private-sources", "--redis-url", redis.url,
            ])
            let url = server.baseURL + "/insecure/rs:fit:30:30/plain/\(origin.http)/static/photo.jpg@png"
            let first = try HTTPExchange.send(url)
            #expect(first.status == 200)
            #expect(try redis.command(["DBSIZE"]) != ":0")
            #expect(server.stop() == 0)
            let restarted = try ImageServerProcess([
                "--allow-unsigned", "--allow-private-sources", "--redis-url", redis.url,
            ])
            let again = try HTTPExchange.send(
                restarted.baseURL + "/insecure/rs:fit:30:30/plain/\(origin.http)/static/photo.jpg@png")
            #expect(again.headers["server-timing"]?.hasPrefix("cache;desc=disk") == true)
            #expect(again.body == first.body)
        }
    }
}
