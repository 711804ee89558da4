import Foundation
import Testing
import WebImageTestSupport

/// `webimage cache --backend redis` and `webimage get|prefetch --cache-backend redis` against a
/// real server. Commands time out after 5 s (`timeout-ms=5000`) unless the timeout is what a test
/// is about: the plugin's 50 ms is a production limit that a loaded test machine can miss for a
/// command that succeeds.
@Suite(.ownThread) struct RedisCacheCommandTests {
    @Test func putGetInfoAndClearThroughTheCommand() async throws {
        let server = try RedisServer()
        let plugins = try PluginsFolder.make()
        func run(_ arguments: [String]) async throws -> CommandResult {
            try await WebImageProcess.run(arguments, plugins: plugins)
        }
        let input = server.folder + "/input.bin"
        try Data(repeating: 7, count: 500).write(to: URL(fileURLWithPath: input))
        let common = [
            "--backend", "redis", "--option", "url=\(server.url)", "--option", "timeout-ms=5000", "--namespace", "cli",
        ]
        #expect(
            try await run(["cache", "put", "http://h/a.png", input] + common).standardOutput
                == "stored 500 bytes for http://h/a.png\n")
        let output = server.folder + "/output.bin"
        #expect(try await run(["cache", "get", "http://h/a.png", "-o", output] + common).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(repeating: 7, count: 500))
        let info = try await run(["cache", "info", "--json"] + common)
        let json = try info.json()
        #expect(json["backend"] as? String == "redis")
        #expect(json["entries"] as? Int == 1)
        #expect(json["bytes"] as? Int == 532)
        #expect(json["folder"] == nil)
        let list = try await run(["cache", "list"] + common)
        #expect(list.outputLines.first == "KEY             BYTES  AGE (s)  NAME")
        #expect(list.outputLines.dropFirst().first?.hasPrefix("http://h/a.png    532  ") == true)
        #expect(list.outputLines.dropFirst().first?.hasSuffix("  http://h/a.png") == true)
        #expect(
            try await run(["cache", "path", "http://h/a.png"] + common).standardError
                == "error: the redis cache keeps no files\n")
        #expect(try await run(["cache", "clear"] + common).status == 0)
        let missing = try await run(["cache", "get", "http://h/a.png"] + common)
        #expect(missing.status == 1)
        #expect(missing.standardError == "error: no entry for key 'http://h/a.png' in the redis cache\n")
        let bad = try await run(["cache", "info", "--backend", "redis", "--option", "timeout-ms=soon"])
        #expect(
            bad.standardError
                == "error: redis cache: timeout-ms: 'soon' is not a number of milliseconds from 1 to 600000\n")
    }

    @Test("cache get: a truncated, bit-flipped or foreign value is not served; the error says why and the key is gone")
    func damagedEntriesAreNotServed() async throws {
        let server = try RedisServer()
        let plugins = try PluginsFolder.make()
        let input = server.folder + "/input.bin"
        try Data((0..<500).map { UInt8($0 % 251) }).write(to: URL(fileURLWithPath: input))
        let common = ["--backend", "redis", "--option", "url=\(server.url)", "--option", "timeout-ms=5000"]
        let damages: [([[String]], String)] = [
            (
                [
                    [
                        "EVAL", "return redis.call('SET', KEYS[1], string.sub(redis.call('GET', KEYS[1]), 1, 300))",
                        "1", "KEY",
                    ]
                ],
                "length does not match the header"
            ),
            ([["SETRANGE", "KEY", "200", "x"]], "checksum mismatch"),
            ([["SET", "KEY", "garbage"]], "shorter than its header"),
            ([["DEL", "KEY"], ["LPUSH", "KEY", "a"]], "the key holds a Redis list, not a string"),
        ]
        for (commands, reason) in damages {
            let put = try await WebImageProcess.run(["cache", "put", "k", input] + common, plugins: plugins)
            #expect(put.status == 0, "\(put.standardError)")
            for command in commands { _ = try server.command(command.map { $0 == "KEY" ? "default:k" : $0 }) }
            let get = try await WebImageProcess.run(["cache", "get", "k"] + common, plugins: plugins)
            #expect(get.status == 1)
            #expect(get.standardOutput.isEmpty)
            #expect(
                get.standardError
                    == "error: no entry for key 'k' in the redis cache (corrupt entry removed: \(reason))\n")
            #expect(try server.command(["EXISTS", "default:k"]) == ":0")
        }
    }

    @Test("cache get on a server that is down: the server does not answer, not 'no entry'")
    func aDeadServerIsNotAMiss() async throws {
        let plugins = try PluginsFolder.make()
        let port = try LoopbackPort.free()
        let result = try await WebImageProcess.run(
            ["cache", "get", "k", "--backend", "redis", "--option", "url=redis://127.0.0.1:\(port)"], plugins: plugins)
        #expect(result.status == 1)
        #expect(
            result.standardError
                == "error: get: redis cache 127.0.0.1:\(port) does not answer: cannot connect: Connection refused\n")
    }

    @Test("cache get on a frozen server (SIGSTOP): no answer within the command timeout, not 'no entry'")
    func aFrozenServerIsNotAMiss() async throws {
        let plugins = try PluginsFolder.make()
        let server = try RedisServer()
        server.pause()
        defer { server.resume() }
        // The kernel still accepts the connection; the GET gets no answer within timeout-ms.
        let result = try await WebImageProcess.run(
            ["cache", "get", "k", "--backend", "redis", "--option", "url=\(server.url)", "--option", "timeout-ms=200"],
            plugins: plugins)
        #expect(result.status == 1)
        #expect(
            result.standardError
                == "error: get: redis cache 127.0.0.1:\(server.port) does not answer: GET got no answer within 200 ms\n"
        )
    }

    /// `webimage get` or `prefetch` with the disk tier on Redis.
    func manager(_ command: String, _ arguments: [String], redis url: String, plugins: PluginsFolder) async throws
        -> CommandResult
    {
        try await WebImageProcess.run(
            [
                command, "--plugin-path", plugins.path, "--cache-backend", "redis", "--cache-option", "url=\(url)",
                "--cache-option", "timeout-ms=5000",
            ] + arguments)
    }

    @Test("get --cache-backend redis: from the network, then from Redis in the next process; one request")
    func getThroughRedis() async throws {
        let nginx = try GetTests.server()
        let server = try RedisServer()
        let plugins = try PluginsFolder.make()
        let url = nginx.http + "/static/badge.png"
        let first = try await manager("get", [url, "--json"], redis: server.url, plugins: plugins)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardError.isEmpty)
        let report = try first.json()
        #expect(report["cache_type"] as? String == "none")
        #expect(try server.command(["EXISTS", "default:" + url]) == ":1")
        let second = try await manager("get", [url, "--json"], redis: server.url, plugins: plugins)
        #expect(second.status == 0, "\(second.standardError)")
        let again = try second.json()
        #expect(again["cache_type"] as? String == "disk")
        #expect(again["width"] as? Int == 512 && again["height"] as? Int == 512)
        #expect(nginx.requests(matching: "/static/badge.png", atLeast: 1).count == 1)
    }

    @Test("prefetch --cache-backend redis fills Redis: get from the cache only finds every image there")
    func prefetchIntoRedis() async throws {
        let nginx = try GetTests.server()
        let server = try RedisServer()
        let plugins = try PluginsFolder.make()
        let urls = ["landscape.jpg", "badge.png"].map { nginx.http + "/static/" + $0 }
        let prefetch = try await manager("prefetch", ["--json"] + urls, redis: server.url, plugins: plugins)
        #expect(prefetch.status == 0, "\(prefetch.standardError)")
        let get = try await manager(
            "get", ["--json", "--options", "from-cache-only"] + urls, redis: server.url, plugins: plugins)
        #expect(get.status == 0, "\(get.standardError)")
        #expect(get.outputLines.count == 2 && get.outputLines.allSatisfy { $0.contains("\"cache_type\":\"disk\"") })
        #expect(nginx.requests(matching: "/static/", atLeast: 2).count == 2)
    }

    @Test("get with Redis down: the image still loads from the network, with one warning that the cache failed")
    func getFailsOpenWhenRedisIsDown() async throws {
        let nginx = try GetTests.server()
        let plugins = try PluginsFolder.make()
        let port = try LoopbackPort.free()
        let url = nginx.http + "/static/badge.png"
        let result = try await manager("get", [url, "--json"], redis: "redis://127.0.0.1:\(port)", plugins: plugins)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try result.json()
        #expect(report["cache_type"] as? String == "none")
        #expect(report["width"] as? Int == 512 && report["error"] is NSNull)
        #expect(
            result.standardError
                == "warning: the redis cache failed 2 times (reads were misses, stores were dropped); first: "
                + "redis cache 127.0.0.1:\(port) does not answer: cannot connect: Connection refused\n")
        #expect(nginx.requests(matching: "/static/badge.png", atLeast: 1).count == 1)
    }

    @Test("--cache-backend takes disk or redis; --cache-dir is the disk backend's")
    func backendArgumentErrors() async throws {
        let plugins = try PluginsFolder.make()
        let url = "http://127.0.0.1:1/a.png"
        let wrong = try await WebImageProcess.run(
            ["get", url, "--plugin-path", plugins.path, "--cache-backend", "memcached"])
        #expect(wrong.standardError == "error: --cache-backend 'memcached' is not disk or redis\n")
        let folder = try await manager(
            "get", [url, "--cache-dir", "/tmp"], redis: "redis://127.0.0.1:1", plugins: plugins)
        #expect(folder.standardError == "error: --cache-dir applies to the disk backend only\n")
        let option = try await WebImageProcess.run(
            ["prefetch", url, "--plugin-path", plugins.path, "--cache-backend", "redis", "--cache-option", "url"])
        #expect(option.standardError == "error: --cache-option 'url' is not key=value\n")
    }
}
