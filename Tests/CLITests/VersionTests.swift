import Testing
import WebImageCore

@Suite("webimage --version")
struct VersionTests {
    @Test("prints the release and the plugin ABI on one line, exit 0, nothing on stderr")
    func version() async throws {
        let result = try await WebImageProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.outputLines == ["webimage 1.0.0 (plugin ABI \(WebImageVersion.pluginABI))"])
        #expect(WebImageVersion.pluginABI == 1)
        #expect(result.standardError.isEmpty)
    }
}
