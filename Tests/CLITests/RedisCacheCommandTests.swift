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
        #expect(json["bytes"] as? Int == 508)
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
}
