import Foundation
import Synchronization
import Testing
import WebImageCore
import WebImageTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `webimage serve --redis-url` instances started by the tests on 127.0.0.1 with a real
/// `redis-server` and an origin nginx, both started by the tests too.
@Suite("webimage serve on Redis")
struct RedisFleetTests {
    /// The arguments of an instance on `redis`, with Redis commands allowed `timeout` seconds
    /// (2 s unless told: not the default 50 ms, which a loaded test machine can exceed while
    /// Redis is up).
    static func arguments(_ redis: RedisServer, timeout: String = "2") -> [String] {
        ["--allow-unsigned", "--allow-private-sources", "--redis-url", redis.url, "--redis-timeout", timeout]
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

    @Test(
        "a frozen Redis (SIGSTOP): requests succeed past its timeout, /health says degraded, then ok once it runs again"
    )
    func frozenRedis() async throws {
        try await onOwnThread {
            let origin = try ImageServerTests.origin()
            let redis = try RedisServer()
            let server = try ImageServerProcess(Self.arguments(redis, timeout: "0.5"))
            let path = { (n: Int) in "/insecure/rs:fit:30:30/plain/\(origin.http)/static/photo.jpg%3Fn=\(n)@png" }
            #expect(try HTTPExchange.send(server.baseURL + path(0)).status == 200)
            #expect(try Self.waitForHealth(server, startingWith: "ok").text == "ok\n")
            redis.pause()
            defer { redis.resume() }
            // Connections stay open and get no answer: each command waits for the timeout, then
            // the plugin's back-off lets the requests after it go on without Redis at once.
            var answers: [HTTPExchange] = []
            for n in 1...10 { answers.append(try HTTPExchange.send(server.baseURL + path(n), within: .seconds(60))) }
            #expect(answers.allSatisfy { $0.status == 200 })
            let degraded = try Self.waitForHealth(server, startingWith: "degraded: ")
            #expect(degraded.status == 200)
            #expect(degraded.text.hasPrefix("degraded: redis cache 127.0.0.1:\(redis.port) does not answer: "))
            let failures = ImageServerTests.metric(
                try HTTPExchange.send(server.baseURL + "/metrics").text, "webimage_serve_result_cache_failures_total")
            #expect((failures ?? 0) >= 1)
            redis.resume()
            #expect(try Self.waitForHealth(server, startingWith: "ok").text == "ok\n")
            let after = try HTTPExchange.send(server.baseURL + path(11))
            #expect(after.status == 200, "\(after.text) \(server.standardError)")
            #expect(try redis.command(["--scan", "--pattern", "results:*n=11*"]).contains("n=11"))
        }
    }

    /// Three instances on `redis`, each with `extra` arguments.
    static func fleet(_ redis: RedisServer, _ extra: [String] = []) throws -> [ImageServerProcess] {
        try (0..<3).map { _ in try ImageServerProcess(arguments(redis) + extra) }
    }

    @Test("100 identical requests at once through nginx over three instances: one origin request, the same bytes")
    func fleetCoalescing() async throws {
        try await onOwnThread {
            let origin = try ImageServerTests.origin()
            let redis = try RedisServer()
            let fleet = try Self.fleet(redis)
            let balancer = try NginxLoadBalancer(members: fleet.map(\.port))
            // 1 KB at 150 bytes a second: the source takes 7 s, so every request arrives while it
            // loads, and the leader renews its 5 s lease to keep it.
            let path = "/insecure/rs:fit:30:30/plain/\(origin.http)/slow/photo.jpg%3Frate=150@png"
            let answers = try TemporaryDirectory()
            let output = try ChildProcess.output(
                of: "/usr/bin/curl",
                ["-s", "--parallel", "--parallel-immediate", "--parallel-max", "100", "-w", "%{http_code}\n"]
                    + (0..<100).flatMap { ["-o", answers.file("\($0)"), balancer.baseURL + path] })
            let statuses = String(decoding: output, as: UTF8.self).split(separator: "\n")
            #expect(statuses.count == 100)
            #expect(statuses.allSatisfy { $0 == "200" })
            #expect(ImageServerTests.originRequests(origin, "/slow/photo.jpg") == 1)
            // Round robin: each instance had a third of them.
            let members = balancer.answered(atLeast: 100).map { $0.split(separator: "|")[2] }
            #expect(Set(members).count == 3 && members.count == 100)
            let bodies = try (0..<100).map { try Data(contentsOf: URL(fileURLWithPath: answers.file("\($0)"))) }
            #expect(Set(bodies).count == 1)
            #expect(try ImageServerTests.probe(Array(bodies[0]), server: fleet[0]).0 == 30)
            // One instance fetched it; the other two waited for it behind the lease.
            let metrics = try fleet.map { try HTTPExchange.send($0.baseURL + "/metrics").text }
            let fetches = metrics.map { ImageServerTests.metric($0, "webimage_serve_origin_fetches_total") ?? 0 }
            #expect(fetches.sorted() == [0, 0, 1])
            let waits = metrics.map { ImageServerTests.metric($0, "webimage_serve_fleet_waits_total") ?? 0 }
            #expect(waits.sorted() == [0, 1, 1])
            // The lease ended with the work.
            #expect(try redis.command(["--scan", "--pattern", "lease:*"]) == "")
        }
    }

    @Test("the leader killed with SIGKILL while the others wait: one of them takes the lease over once it ends")
    func leaderKilled() async throws {
        try await onOwnThread {
            let origin = try ImageServerTests.origin()
            let redis = try RedisServer()
            // The source (1 KB and the headers) takes about 8 s at 150 bytes a second; the source
            // timeout is 20 s. At 350 bytes a second (2-3 s) one loaded CI run's /metrics polls
            // missed the leader at work: it had finished, and the followers found its result.
            let fleet = try Self.fleet(redis)
            let path = "/insecure/rs:fit:30:30/plain/\(origin.http)/slow/photo.jpg%3Frate=150@png"
            let leader = Thread { _ = try? HTTPExchange.send(fleet[0].baseURL + path) }
            leader.start()
            #expect(try ImageServerTests.waitForMetric(fleet[0], "webimage_serve_processing", 1))
            let lease = try redis.command(["--scan", "--pattern", "lease:*"])
            #expect(lease.hasPrefix("\"lease:results:"))
            // A lease of 5 s, renewed while the leader works, not one of the source timeout:
            // a dead leader's lease ends within 5 s.
            // (Its key holds newlines, which redis-cli prints escaped: a script reads it.)
            let script = "return redis.call('PTTL', redis.call('KEYS', 'lease:*')[1])"
            let ttl = Int(try redis.command(["EVAL", script, "0"]).dropFirst()) ?? 0
            #expect(ttl > 0 && ttl <= 5_000)
            let answers = TrackedMutex<[Int: HTTPExchange]>([:])
            let followers = (1...2).map { index in
                Thread {
                    let answer = try? HTTPExchange.send(fleet[index].baseURL + path, within: .seconds(60))
                    answers.withLock { $0[index] = answer }
                }
            }
            for follower in followers { follower.start() }
            usleep(500_000)
            #expect(fleet[0].stop(signal: SIGKILL) != 0)
            let deadline = ContinuousClock.now + .seconds(90)
            while answers.withLock({ $0.count }) < 2 && ContinuousClock.now < deadline { usleep(50_000) }
            let finished = answers.withLock { $0 }
            #expect(finished[1]?.status == 200)
            #expect(finished[2]?.status == 200)
            #expect(finished[1]?.body == finished[2]?.body)
            #expect(try ImageServerTests.probe(finished[1]?.body ?? [], server: fleet[1]).0 == 30)
            // The killed leader's request and the one of the follower that took over (waiting
            // 3 seconds for one more to show in nginx's log); the other follower waited for it.
            let fetches = origin.requests(matching: "/slow/photo.jpg", atLeast: 3, within: .seconds(3))
            #expect(fetches.count == 2)
            let waits = try (1...2).map {
                ImageServerTests.metric(
                    try HTTPExchange.send(fleet[$0].baseURL + "/metrics").text, "webimage_serve_fleet_waits_total") ?? 0
            }
            #expect(waits.sorted() == [0, 1])
        }
    }

    @Test(
        "1,000 distinct requests at 32 connections through nginx, one instance killed with SIGKILL halfway: all answered"
    )
    func memberKilledBehindBalancer() async throws {
        try await onOwnThread {
            let origin = try ImageServerTests.origin()
            let redis = try RedisServer()
            let fleet = try Self.fleet(redis)
            let balancer = try NginxLoadBalancer(members: fleet.map(\.port))
            // Distinct results of the 61×43 photo, each filled to its own size.
            let sizes = (0..<1000).map { (width: 10 + $0 % 34, height: 10 + $0 / 34) }
            let answers = try TemporaryDirectory()
            let requests = sizes.enumerated().map { index, size in
                let url =
                    "\(balancer.baseURL)/insecure/rs:fill:\(size.width):\(size.height)/plain/"
                    + "\(origin.http)/static/photo.jpg@png"
                return "url = \"\(url)\"\noutput = \"\(answers.file("\(index)"))\"\n"
            }
            _ = try answers.write("requests.curl", requests.joined())
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            curl.arguments = [
                "-s", "--no-progress-meter", "--parallel", "--parallel-max", "32", "-w", "%{http_code}\n", "-K",
                answers.file("requests.curl"),
            ]
            _ = FileManager.default.createFile(atPath: answers.file("statuses"), contents: nil)
            curl.standardOutput = try FileHandle(forWritingTo: answers.url.appendingPathComponent("statuses"))
            curl.standardError = FileHandle.nullDevice
            try curl.run()
            let halfway = ContinuousClock.now + .seconds(120)
            while balancer.answered().count < 500 && curl.isRunning && ContinuousClock.now < halfway { usleep(5_000) }
            #expect(fleet[1].stop(signal: SIGKILL) != 0)
            let killedAt = balancer.answered().count
            curl.waitUntilExit()
            #expect(killedAt >= 500 && killedAt < 1000, "the kill came halfway")

            let statuses = try String(contentsOfFile: answers.file("statuses"), encoding: .utf8)
                .split(separator: "\n")
            #expect(statuses.count == 1000)
            #expect(statuses.allSatisfy { $0 == "200" }, "\(statuses.filter { $0 != "200" }.prefix(5))")
            for (index, size) in sizes.enumerated() {
                let body = try [UInt8](Data(contentsOf: URL(fileURLWithPath: answers.file("\(index)"))))
                let info = try? ImageServerTests.probe(body, server: fleet[0])
                #expect(info?.0 == size.width && info?.1 == size.height && info?.2 == "png", "answer \(index)")
            }
            // The killed member had answered some; later requests for it went to the others
            // (nginx logs each member a request tried: a passed-on one lists two).
            let lines = balancer.answered(atLeast: 1000)
            #expect(lines.count == 1000)
            let killed = "127.0.0.1:\(fleet[1].port)"
            #expect(lines.filter { $0.hasSuffix("|\(killed)|200") }.count > 0)
            #expect(lines.contains { $0.contains("\(killed), ") }, "a request for the killed member was passed on")
            #expect(lines.allSatisfy { $0.split(separator: "|")[1] == "200" })
        }
    }

    @Test(
        "two results of one source on two instances: one origin fetch with --redis-originals, one per instance without",
        arguments: [true, false])
    func sharedOriginals(_ shared: Bool) async throws {
        try await onOwnThread {
            let origin = try ImageServerTests.origin()
            let redis = try RedisServer()
            let extra = shared ? ["--redis-originals"] : []
            let instances = try (0..<2).map { _ in try ImageServerProcess(Self.arguments(redis) + extra) }
            let source = "\(origin.http)/static/photo.jpg"
            let first = try HTTPExchange.send(instances[0].baseURL + "/insecure/rs:fit:30:30/plain/\(source)@png")
            let second = try HTTPExchange.send(instances[1].baseURL + "/insecure/rs:fit:20:20/plain/\(source)@png")
            #expect(first.status == 200 && second.status == 200)
            #expect(try ImageServerTests.probe(first.body, server: instances[0]).0 == 30)
            #expect(try ImageServerTests.probe(second.body, server: instances[1]).0 == 20)
            #expect(ImageServerTests.originRequests(origin, "/static/photo.jpg") == (shared ? 1 : 2))
            let originals = try redis.command(["--scan", "--pattern", "originals:*"])
            #expect(originals.contains("/static/photo.jpg") == shared)
        }
    }

    @Test("--redis-originals without --redis-url is refused on one line")
    func redisOriginalsNeedARedis() async throws {
        try await onOwnThread {
            let plugins = try PluginsFolder()
            try plugins.addAllBundled()
            let run = try MeasuredProcess.run(
                try BuildProducts.executable.path,
                [
                    "serve", "--allow-unsigned", "--redis-originals", "--listen", "127.0.0.1:0", "--plugin-path",
                    plugins.path,
                ],
                timeLimit: .seconds(60))
            #expect(run.exitStatus == 1)
            #expect(run.errorLines == ["error: redis-originals needs redis-url: give --redis-url URL"])
        }
    }
}
