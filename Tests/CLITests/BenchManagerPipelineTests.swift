import Foundation
import Testing
import WebImageTestSupport

/// `webimage bench manager pipeline` against a real nginx: the sides of a round, their CPU
/// seconds, the caches kept in `--cache-dir`, one side alone.
@Suite("webimage bench manager pipeline") struct BenchManagerPipelineTests {
    /// Runs the pipeline benchmark over two sample images served by nginx.
    private func run(_ extra: [String], in work: TemporaryDirectory) async throws -> CommandResult {
        let server = try GetTests.server()
        let plugins = try PluginsFolder.make()
        let list = try work.write(
            "urls.txt", ["landscape.jpg", "badge.png"].map { server.http + "/static/" + $0 }.joined(separator: "\n"))
        let result = try await WebImageProcess.run(
            [
                "bench", "manager", "pipeline", "--plugin-path", plugins.path, "--urls", list, "--files",
                GetTests.samples.path, "--thumbnail", "64x64", "--rounds", "1", "--isolation", "none",
            ] + extra)
        return result
    }

    @Test("one round: manager, decode alone and by hand, each with CPU seconds and the server's; the caches stay")
    func everySide() async throws {
        let work = try TemporaryDirectory()
        let result = try await run(
            ["--server-pid", "\(getpid())", "--cache-dir", work.path + "/caches"], in: work)
        #expect(result.status == 0, "\(result.standardError)")
        let round = try #require(result.outputLines.first { $0.hasPrefix("round 1: ") })
        #expect(round.contains("manager ") && round.contains("decode alone (2 threads) "))
        #expect(round.contains("fetch+decode+store by hand "))
        #expect(round.components(separatedBy: "(CPU ").count == 4)
        #expect(round.components(separatedBy: ", server CPU ").count == 4)
        #expect(round.contains(", last load completed at "))
        let kept = try FileManager.default.contentsOfDirectory(atPath: work.path + "/caches").sorted()
        #expect(kept == ["1-by-hand", "1-manager"])
    }

    @Test("--only decode runs that side alone; --store-cache-type takes none, memory, disk or all")
    func oneSideAndStoreType() async throws {
        let decode = try await run(["--only", "decode"], in: try TemporaryDirectory())
        #expect(decode.status == 0, "\(decode.standardError)")
        let round = try #require(decode.outputLines.first { $0.hasPrefix("round 1: ") })
        #expect(round.hasPrefix("round 1: decode alone (2 threads) ") && !round.contains("manager"))
        let disk = try await run(["--only", "manager", "--store-cache-type", "disk"], in: try TemporaryDirectory())
        #expect(disk.status == 0, "\(disk.standardError)")
        #expect(disk.outputLines.contains { $0.hasPrefix("round 1: manager ") })
        let bad = try await run(
            ["--only", "manager", "--store-cache-type", "everywhere"], in: try TemporaryDirectory())
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("invalid --store-cache-type 'everywhere'"))
    }
}
