import Foundation
import Testing
import WebImageTestSupport

@Suite("webimage cache")
struct CacheCommandTests {
    let plugins: PluginsFolder
    let cacheFolder: TemporaryDirectory

    init() throws {
        plugins = try PluginsFolder.make()
        cacheFolder = try TemporaryDirectory()
    }

    /// Runs `webimage cache <arguments> --cache-dir <folder>` with the bundled plugins.
    func cache(_ arguments: [String]) async throws -> CommandResult {
        try await WebImageProcess.run(["cache"] + arguments + ["--cache-dir", cacheFolder.path], plugins: plugins)
    }

    @Test("put, get, path, list, info, remove and clear")
    func roundTrip() async throws {
        let input = cacheFolder.file("input.bin")
        try Data((0..<1000).map { UInt8($0 % 251) }).write(to: URL(fileURLWithPath: input))
        let put = try await cache(["put", "http://h/a.png", input])
        #expect(put.status == 0)
        #expect(put.outputLines == ["stored 1000 bytes for http://h/a.png"])
        let output = cacheFolder.file("out.bin")
        #expect(try await cache(["get", "http://h/a.png", "-o", output]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: URL(fileURLWithPath: input)))
        let path = try await cache(["path", "http://h/a.png"])
        #expect(path.outputLines.count == 1)
        #expect(path.outputLines.first?.hasPrefix(cacheFolder.path + "/default/") == true)
        #expect(path.outputLines.first?.hasSuffix(".png") == true)
        let list = try await cache(["list", "--json"])
        let items = try #require(
            try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
        #expect(items.count == 1)
        #expect(items.first?["size"] as? Int == 1032)
        let info = try await cache(["info", "--json", "--option", "max-size=5000"]).json()
        #expect(info["backend"] as? String == "disk")
        #expect(info["entries"] as? Int == 1)
        #expect(info["bytes"] as? Int == 1032)
        #expect(info["max_size"] as? Int == 5000)
        #expect(info["max_age"] as? Int == 604_800)
        #expect(try await cache(["remove", "http://h/a.png"]).outputLines == ["removed http://h/a.png"])
        #expect(try await cache(["info", "--json"]).json()["entries"] as? Int == 0)
        #expect(try await cache(["put", "k", input]).status == 0)
        #expect(try await cache(["clear"]).outputLines == ["cleared"])
        #expect(try await cache(["info", "--json"]).json()["entries"] as? Int == 0)
    }

    @Test("list shows each entry's key under a header line, '-' when unknown; info prints the cache folder")
    func listShowsKeysAndInfoTheFolder() async throws {
        let input = cacheFolder.file("input.bin")
        try Data(count: 1000).write(to: URL(fileURLWithPath: input))
        #expect(try await cache(["put", "http://h/b.png", input]).status == 0)
        #expect(try await cache(["put", "k", input]).status == 0)
        #expect(try await cache(["put", "no-xattr", input, "--option", "xattr=off"]).status == 0)
        var names: [String] = []
        for key in ["http://h/b.png", "k", "no-xattr"] {
            let path = try #require(try await cache(["path", key]).outputLines.first)
            names.append(URL(fileURLWithPath: path).lastPathComponent)
            // A modification time ahead makes the age exactly 0 (ages are at least 0).
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: path)
        }
        let list = try await cache(["list"])
        #expect(list.status == 0)
        #expect(
            list.outputLines == [
                "KEY             BYTES  AGE (s)  NAME",
                "http://h/b.png   1032        0  \(names[0])",
                "k                1032        0  \(names[1])",
                "-                1032        0  \(names[2])",
            ])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try await cache(["list", "--json"]).standardOutput.utf8))
                as? [[String: Any]])
        #expect(json.map { $0["key"] as? String } == ["http://h/b.png", "k", nil])
        #expect(json.map { $0.keys.contains("key") } == [true, true, false])
        #expect(json.map { $0["name"] as? String } == names)
        #expect(json.map { $0["size"] as? Int } == [1032, 1032, 1032])
        #expect(json.map { $0["age"] as? Int } == [0, 0, 0])
        let info = try await cache(["info"])
        #expect(
            info.outputLines == [
                "backend: disk", "folder: \(cacheFolder.path)/default", "entries: 3", "bytes: 3096",
                "max-size: none", "max-count: none", "max-age: 604800 s",
            ])
        #expect(try await cache(["info", "--json"]).json()["folder"] as? String == cacheFolder.path + "/default")
    }

    @Test("trim enforces limits given as options")
    func trim() async throws {
        let input = cacheFolder.file("input.bin")
        try Data(count: 968).write(to: URL(fileURLWithPath: input))
        for index in 0..<6 { #expect(try await cache(["put", "k\(index)", input]).status == 0) }
        let trimmed = try await cache(["trim", "--option", "max-count=4"])
        #expect(trimmed.outputLines == ["2 entries, 2000 bytes"])
    }

    @Test("a missing key, an unknown option and a bad value are one error line and exit 1")
    func errors() async throws {
        let missing = try await cache(["get", "nothing"])
        #expect(missing.status == 1)
        #expect(missing.errorLines == ["error: no entry for key 'nothing' in the disk cache"])
        let unknown = try await cache(["info", "--option", "colour=red"])
        #expect(unknown.status == 1)
        #expect(unknown.errorLines.count == 1)
        #expect(unknown.errorLines.first?.hasPrefix("error: disk cache: unknown option 'colour'") == true)
        let bad = try await cache(["info", "--option", "max-size=big"])
        #expect(bad.errorLines == ["error: disk cache: max-size: 'big' is not a whole number (0 means no limit)"])
        let notPair = try await cache(["info", "--option", "max-size"])
        #expect(notPair.errorLines == ["error: --option 'max-size' is not key=value"])
        let backend = try await cache(["info", "--backend", "s3"])
        #expect(backend.errorLines == ["error: --backend 's3' is not disk or redis"])
    }
}
