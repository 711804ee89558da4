import Foundation
import Testing
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `webimage serve --redis-url` instances started by the tests on 127.0.0.1 with a real
/// `redis-server` and an origin nginx, both started by the tests too.
@Suite("webimage serve on Redis")
struct RedisFleetTests {
    /// The arguments of an instance on `redis`, with Redis commands allowed 2 s (not the
    /// default 50 ms, which a loaded test machine can exceed while Redis is up).
    static func arguments(_ redis: RedisServer) -> [String] {
        ["--allow-unsigned", "--allow-private-sources", "--redis-url", redis.url, "--redis-timeout", "2"]
    }

    /// Waits up to 30 seconds (the health answer is kept 5 s, the plugin's back-off is at most
    /// 5 s) for `/health` to answer 200 with a body starting with `prefix`; the last answer.
    static func waitForHealth(_ server: ImageServerProcess, startingWith prefix: String) throws -> HTTPExchange {
        let deadline = ContinuousClock.now + .seconds(30)
        var health = try HTTPExchange.send(server.baseURL + "/health")
        while !(health.status == 200 && health.text.hasPrefix(prefix)) && ContinuousClock.now < deadline {
            usleep(100_000)
            health = try HTTPExchange.send(server.baseURL + "/health")
        }
        return health
    }

    @Test(
        "Redis killed then restarted during a run: every request succeeds, failures counted, /health degraded then ok, Redis used again"
    )
    func redisOutage() async throws {
        try await onOwnThread {
            let origin = try ImageServerTests.origin()
            let redis = try RedisServer()
            let server = try ImageServerProcess(Self.arguments(redis))
            let path = { (n: Int) in "/insecure/rs:fit:30:30/plain/\(origin.http)/static/photo.jpg%3Fn=\(n)@png" }
            let url = { (n: Int) in server.baseURL + path(n) }
            var answers: [HTTPExchange] = []
            for n in 0..<5 { answers.append(try HTTPExchange.send(url(n))) }
            #expect(try Self.waitForHealth(server, startingWith: "ok").text == "ok\n")
            let before = ImageServerTests.metric(
                try HTTPExchange.send(server.baseURL + "/metrics").text, "webimage_serve_result_cache_failures_total")
            #expect(before == 0)

            redis.stop()
            // New images (misses, looked up and stored in Redis) and repeats (memory hits) while Redis is down.
            for n in 5..<15 { answers.append(try HTTPExchange.send(url(n))) }
            for n in 0..<15 { answers.append(try HTTPExchange.send(url(n))) }
            let degraded = try Self.waitForHealth(server, startingWith: "degraded: ")
            #expect(degraded.status == 200)
            #expect(
                degraded.text.hasPrefix("degraded: redis cache 127.0.0.1:\(redis.port) does not answer: ")
                    && degraded.text.hasSuffix("\n"))
            let failures = ImageServerTests.metric(
                try HTTPExchange.send(server.baseURL + "/metrics").text, "webimage_serve_result_cache_failures_total")
            #expect((failures ?? 0) >= 1)

            try redis.start()
            #expect(try Self.waitForHealth(server, startingWith: "ok").text == "ok\n")
            // The restarted Redis is empty: a new result is written to it again, with no restart of the instance.
            answers.append(try HTTPExchange.send(url(100)))
            #expect(try redis.command(["--scan", "--pattern", "results:*n=100*"]).contains("n=100"))
            #expect(answers.count == 31)
            #expect(answers.allSatisfy { $0.status == 200 })
            for answer in answers { #expect(try ImageServerTests.probe(answer.body, server: server).0 == 30) }
            // Another instance finds that result in Redis.
            let other = try ImageServerProcess(Self.arguments(redis))
            let shared = try HTTPExchange.send(other.baseURL + path(100))
            #expect(shared.headers["server-timing"]?.hasPrefix("cache;desc=disk") == true)
            #expect(shared.body == answers.last?.body)
            #expect(!server.standardError.contains("cannot keep a result"))
        }
    }
}
