import Foundation
import Testing
import WebImageTestSupport

/// `webimage-bench manager pipeline` against a real nginx: the sides of a round, their CPU
/// seconds, the caches kept in `--cache-dir`, one side alone.
@Suite("webimage-bench manager pipeline", .ownThread) struct BenchManagerPipelineTests {
    /// Runs the pipeline benchmark over two sample images served by nginx.
    private func run(_ extra: [String], in work: TemporaryDirectory) async throws -> CommandResult {
        let server = try GetTests.server()
        let plugins = try PluginsFolder.make()
        let list = try work.write(
            "urls.txt", ["landscape.jpg", "badge.png"].map { server.http + "/static/" + $0 }.joined(separator: "\n"))
        let result = try await WebImageProcess.run(
            [
                "manager", "pipeline", "--plugin-path", plugins.path, "--urls", list, "--files",
                GetTests.samples.path, "--thumbnail", "64x64", "--rounds", "1", "--isolation", "none",
            ] + extra, executable: try BuildProducts.benchExecutable)
        return result
    }

    @Test(
        "one round: both managers, decode alone, by hand and fresh memory, each with CPU seconds and the server's; the caches stay"
    )
    func everySide() async throws {
        let work = try TemporaryDirectory()
        let result = try await run(
            ["--server-pid", "\(getpid())", "--cache-dir", work.path + "/caches"], in: work)
        #expect(result.status == 0, "\(result.standardError)")
        let round = try #require(result.outputLines.first { $0.hasPrefix("round 1: ") })
        #expect(round.hasPrefix("round 1: manager storing on disk only "))
        #expect(round.contains(", manager ") && round.contains("decode alone (2 threads) "))
        #expect(round.contains("fetch+decode+store by hand ") && round.contains("fresh memory for the thumbnails "))
        #expect(round.components(separatedBy: "(CPU ").count == 6)
        #expect(round.components(separatedBy: ", server CPU ").count == 6)
        #expect(round.components(separatedBy: ", last load completed at ").count == 3)
        let kept = try FileManager.default.contentsOfDirectory(atPath: work.path + "/caches").sorted()
        #expect(kept == ["1-by-hand", "1-manager", "1-manager-disk"])
    }

    @Test("--json prints each round as one object: wall and CPU seconds of every side, the managers' completion")
    func jsonRounds() async throws {
        let result = try await run(
            ["--server-pid", "\(getpid())", "--rounds", "2", "--json"], in: try TemporaryDirectory())
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.count == 2)
        for (index, line) in result.outputLines.enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["round"] as? Int == index + 1)
            #expect(Set(object.keys) == ["round", "manager", "manager-disk", "decode", "by-hand", "fresh-memory"])
            for side in ["manager", "manager-disk", "decode", "by-hand", "fresh-memory"] {
                let values = try #require(object[side] as? [String: Double], "\(side)")
                let expected: Set<String> =
                    side.hasPrefix("manager")
                    ? ["wall", "cpu", "server_cpu", "completed"] : ["wall", "cpu", "server_cpu"]
                #expect(Set(values.keys) == expected, "\(side)")
                #expect(values["wall"]! > 0, "\(side)")
            }
        }
    }

    @Test("--only decode (or fresh-memory) runs that side alone; --store-cache-type takes none, memory, disk or all")
    func oneSideAndStoreType() async throws {
        let decode = try await run(["--only", "decode"], in: try TemporaryDirectory())
        #expect(decode.status == 0, "\(decode.standardError)")
        let round = try #require(decode.outputLines.first { $0.hasPrefix("round 1: ") })
        #expect(round.hasPrefix("round 1: decode alone (2 threads) ") && !round.contains("manager"))
        let memory = try await run(["--only", "fresh-memory"], in: try TemporaryDirectory())
        #expect(memory.status == 0, "\(memory.standardError)")
        #expect(memory.outputLines.contains { $0.hasPrefix("round 1: fresh memory for the thumbnails ") })
        let disk = try await run(["--only", "manager", "--store-cache-type", "disk"], in: try TemporaryDirectory())
        #expect(disk.status == 0, "\(disk.standardError)")
        #expect(disk.outputLines.contains { $0.hasPrefix("round 1: manager ") })
        let bad = try await run(
            ["--only", "manager", "--store-cache-type", "everywhere"], in: try TemporaryDirectory())
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("invalid --store-cache-type 'everywhere'"))
    }
}
