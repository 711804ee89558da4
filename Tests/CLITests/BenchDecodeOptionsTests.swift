import Testing
import WebImageCLISupport

@Suite("BenchDecodeOptions")
struct BenchDecodeOptionsTests {
    @Test("commandLineArguments spells out every option and parses back to the same values")
    func roundTrip() throws {
        let options = try BenchDecodeOptions.parse([
            "--iterations", "7", "--thumbnail", "64x32", "--reference", "--reference-api", "simplified",
            "--all-frames", "--json", "--plugin-path", "/a", "--plugin-path", "b", "--verbose", "--isolation", "all",
            "--plugin-timeout", "2.5", "--", "-dash.png",
        ])
        #expect(
            options.commandLineArguments == [
                "--plugin-path", "/a", "--plugin-path", "b", "--isolation", "all", "--plugin-timeout", "2.5",
                "--verbose",
                "--iterations", "7", "--thumbnail", "64x32",
                "--reference", "--reference-api", "simplified", "--all-frames", "--json", "--", "-dash.png",
            ])
        let reparsed = try BenchDecodeOptions.parse(options.commandLineArguments)
        #expect(reparsed.commandLineArguments == options.commandLineArguments)
    }

    @Test("defaults: untrusted plugins isolated, 20 iterations, the low-level PNG reference, no flags")
    func defaults() throws {
        let options = try BenchDecodeOptions.parse(["photo.jpg"])
        #expect(
            options.commandLineArguments == [
                "--isolation", "untrusted", "--iterations", "20", "--reference-api", "low-level", "--", "photo.jpg",
            ])
    }
}
