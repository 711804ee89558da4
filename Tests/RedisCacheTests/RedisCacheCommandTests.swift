import Foundation
import Testing

/// `webimage cache --backend redis` against a real server.
@Suite struct RedisCacheCommandTests {
    @Test func putGetInfoAndClearThroughTheCommand() throws {
        let server = try RedisServer()
        let tool = try WebImageTool()
        defer { tool.remove() }
        let input = server.folder + "/input.bin"
        try Data(repeating: 7, count: 500).write(to: URL(fileURLWithPath: input))
        let common = ["--backend", "redis", "--option", "url=\(server.url)", "--namespace", "cli"]
        #expect(
            try tool.run(["cache", "put", "http://h/a.png", input] + common).output
                == "stored 500 bytes for http://h/a.png\n")
        let output = server.folder + "/output.bin"
        #expect(try tool.run(["cache", "get", "http://h/a.png", "-o", output] + common).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(repeating: 7, count: 500))
        let info = try tool.run(["cache", "info", "--json"] + common)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any])
        #expect(json["backend"] as? String == "redis")
        #expect(json["entries"] as? Int == 1)
        #expect(json["bytes"] as? Int == 508)
        #expect(
            try tool.run(["cache", "path", "http://h/a.png"] + common).error
                == "error: the redis cache keeps no files\n")
        #expect(try tool.run(["cache", "clear"] + common).status == 0)
        let missing = try tool.run(["cache", "get", "http://h/a.png"] + common)
        #expect(missing.status == 1)
        #expect(missing.error == "error: no entry for key 'http://h/a.png' in the redis cache\n")
        let bad = try tool.run(["cache", "info", "--backend", "redis", "--option", "timeout-ms=soon"])
        #expect(
            bad.error == "error: redis cache: timeout-ms: 'soon' is not a number of milliseconds from 1 to 600000\n")
    }
}
