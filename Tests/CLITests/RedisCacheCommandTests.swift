import Foundation
import Testing
import WebImageTestSupport

/// `webimage cache --backend redis` against a real server.
@Suite struct RedisCacheCommandTests {
    @Test func putGetInfoAndClearThroughTheCommand() async throws {
        let server = try RedisServer()
        let plugins = try PluginsFolder.make()
        func run(_ arguments: [String]) async throws -> CommandResult {
            try await WebImageProcess.run(arguments, plugins: plugins)
        }
        let input = server.folder + "/input.bin"
        try Data(repeating: 7, count: 500).write(to: URL(fileURLWithPath: input))
        let common = ["--backend", "redis", "--option", "url=\(server.url)", "--namespace", "cli"]
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
        let common = ["--backend", "redis", "--option", "url=\(server.url)"]
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
}
