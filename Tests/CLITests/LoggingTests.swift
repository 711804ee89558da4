import Foundation
import Testing
import WebImageTestSupport

@Suite("logging")
struct LoggingTests {
    @Test("faults are logged to standard error only with --verbose")
    func verboseLogsFaults() async throws {
        let junk = try PluginsFolder.makeWithGarbageLibrary()
        let quiet = try await WebImageProcess.run(["plugins", "verify"], plugins: junk)
        #expect(quiet.status == 1)
        #expect(quiet.standardError == "")
        let verbose = try await WebImageProcess.run(["plugins", "verify", "--verbose"], plugins: junk)
        #expect(verbose.status == 1)
        #expect(verbose.errorLines.count == 1)
        #expect(verbose.errorLines.first?.contains("warning webimage.plugins:") == true)
        #expect(verbose.errorLines.first?.contains("not a shared object (plugin 'junk')") == true)
    }
}
