import Foundation
import Testing
import WebImageTestSupport

/// `webimage` with hostile plugins (`Tests/Fixtures/HostilePlugins/hostile.c`) beside the
/// bundled PNG plugin: one `error:` line naming plugin, call and signal instead of a dead
/// process, `plugins verify` surviving crashing and hanging entry functions, and library
/// output on standard error kept out of the tool's own messages.
@Suite("crash isolation in the CLI", .ownThread)
struct CrashIsolationCommandTests {
    /// A folder with the PNG plugin, the hostile plugins given, and the input files
    /// `valid.hostile` ("HOST") and `trigger.hostile` ("HOSTX").
    func folder(_ plugins: [(String, HostileBehaviour)]) throws -> PluginsFolder {
        let folder = try PluginsFolder()
        try folder.addBundled(manifest: "png.json", library: "libWebImagePNG.so")
        for (name, behaviour) in plugins { try folder.addHostile(name, behaviour) }
        try folder.write("valid.hostile", "HOST")
        try folder.write("trigger.hostile", "HOSTX")
        return folder
    }

    @Test("a crash in decode is one error line naming plugin, call and signal")
    func crashInDecode() async throws {
        let plugins = try folder([("crash_decode", .segfault(in: .decode))])
        let result = try await WebImageProcess.run(
            ["convert", plugins.file("trigger.hostile"), plugins.file("out.png")], plugins: plugins)
        #expect(result.status == 1)
        #expect(result.standardError == "error: plugin 'crash_decode' crashed in decode (SIGSEGV)\n")
        let converted = try await WebImageProcess.run(
            ["convert", plugins.file("valid.hostile"), plugins.file("out.png")], plugins: plugins)
        #expect(converted.status == 0, "\(converted.standardError)")
        let png = try await WebImageProcess.run(
            ["info", plugins.file("out.png"), "--json"], plugins: plugins)
        #expect(try png.json()["width"] as? Int == 2)
    }

    @Test("a decode that hangs is killed after --plugin-timeout with one error line")
    func hangInDecode() async throws {
        let plugins = try folder([("hang_decode", .hang(in: .decode))])
        let result = try await WebImageProcess.run(
            ["convert", plugins.file("trigger.hostile"), plugins.file("out.png"), "--plugin-timeout", "3"],
            plugins: plugins)
        #expect(result.status == 1)
        #expect(
            result.standardError == "error: plugin 'hang_decode' timed out in decode after 3 s; its worker was killed\n"
        )
    }

    @Test("a decode that hangs is killed 1 s after --decode-timeout when that comes before --plugin-timeout")
    func hangInDecodeEndsAtTheDecodeTimeout() async throws {
        let plugins = try folder([("hang_decode", .hang(in: .decode))])
        let result = try await WebImageProcess.run(
            ["convert", plugins.file("trigger.hostile"), plugins.file("out.png"), "--decode-timeout", "1"],
            plugins: plugins)
        #expect(result.status == 1)
        #expect(
            result.standardError
                == "error: plugin 'hang_decode' timed out in decode: it ran 1 s past the decode time limit of 1 s; its worker was killed\n"
        )
        #expect(!FileManager.default.fileExists(atPath: plugins.file("out.png")))
    }

    @Test("plugins verify names a crashing and a hanging entry function and reports the rest")
    func verifySurvivesCrashingAndHangingEntries() async throws {
        let plugins = try folder([("crash_entry", .segfault(in: .entry)), ("hang_entry", .hang(in: .entry))])
        for isolation in ["untrusted", "none"] {
            let result = try await WebImageProcess.run(
                ["plugins", "verify", "--plugin-timeout", "3", "--isolation", isolation], plugins: plugins)
            #expect(result.status == 1)
            #expect(result.standardError == "")
            #expect(
                result.outputLines == [
                    "FAULT crash_entry: entry function crashed: \(plugins.file("libcrash_entry.so"))",
                    "        plugin 'crash_entry' crashed in its entry function (SIGSEGV)",
                    "FAULT hang_entry: entry function hung: \(plugins.file("libhang_entry.so"))",
                    "        plugin 'hang_entry' timed out in its entry function after 3 s; its worker was killed",
                    "ok    png 1.0.0: \(plugins.file("libWebImagePNG.so"))",
                    "1 ok, 2 faults",
                ])
        }
    }

    @Test(
        "what a plugin writes to standard error is logged only with --verbose, in-process or isolated",
        arguments: [
            ("none", "warning webimage.stderr: [WebImageCore] standard error: chatty: library noise on stderr"),
            ("untrusted", "[WebImageCore] plugin 'chatty' wrote: chatty: library noise on stderr"),
        ])
    func standardErrorIsCaptured(isolation: String, expectedLine: String) async throws {
        let plugins = try folder([("chatty", .chatty)])
        let arguments = ["convert", plugins.file("valid.hostile"), plugins.file("out.png"), "--isolation", isolation]
        let quiet = try await WebImageProcess.run(arguments, plugins: plugins)
        #expect(quiet.status == 0)
        #expect(quiet.standardError == "")
        let verbose = try await WebImageProcess.run(arguments + ["--verbose"], plugins: plugins)
        #expect(verbose.status == 0)
        #expect(verbose.errorLines.count == 2, "\(verbose.standardError)")
        #expect(verbose.errorLines.first?.hasSuffix(expectedLine) == true, "\(verbose.standardError)")
        #expect(verbose.errorLines.last?.hasSuffix("chatty: second line") == true, "\(verbose.standardError)")
    }

    /// libheif hands libdav1d an empty AV1 payload in this file (Tests/Fuzz/HEIFFuzz/seeds) and
    /// libdav1d prints its own line on standard error, in-process or in the HEIF plugin's worker.
    @Test(
        "libdav1d's own line on standard error is logged only with --verbose, never around the error line",
        arguments: [
            ("none", "warning webimage.stderr: [WebImageCore] standard error: "),
            ("all", "[WebImageCore] plugin 'heif' wrote: "),
        ])
    func libraryOutputIsCaptured(isolation: String, logPrefix: String) async throws {
        let plugins = try PluginsFolder()
        try plugins.addBundled(manifest: "heif.json", library: "libWebImageHEIF.so")
        try plugins.addBundled(manifest: "png.json", library: "libWebImagePNG.so")
        let input = Fixture.directory.deletingLastPathComponent()
            .appendingPathComponent("Fuzz/HEIFFuzz/seeds/libheif-dav1d-data-leak.avif").path
        let arguments = ["convert", input, plugins.file("out.png"), "--isolation", isolation]
        let expectedError =
            "error: corrupt HEIF: cannot decode the image: Decoder plugin generated an error: Unspecified"
        let quiet = try await WebImageProcess.run(arguments, plugins: plugins)
        #expect(quiet.status == 1)
        #expect(quiet.errorLines == [expectedError])
        let verbose = try await WebImageProcess.run(arguments + ["--verbose"], plugins: plugins)
        #expect(verbose.status == 1)
        #expect(verbose.errorLines.count == 2, "\(verbose.standardError)")
        #expect(
            verbose.errorLines.first?.hasSuffix(
                logPrefix + "Input validation check 'in->data == NULL || in->sz' failed in dav1d_send_data!") == true,
            "\(verbose.standardError)")
        #expect(verbose.errorLines.last == expectedError)
    }

    @Test("plugins inspect opens the plugin in a child first: a crashing entry is one error line")
    func inspectSurvivesACrashingEntry() async throws {
        let plugins = try folder([("crash_entry", .segfault(in: .entry))])
        let result = try await WebImageProcess.run(["plugins", "inspect", "crash_entry"], plugins: plugins)
        #expect(result.status == 1)
        #expect(
            result.errorLines == [
                "error: \(plugins.file("libcrash_entry.so")): entry function crashed (plugin 'crash_entry'): "
                    + "plugin 'crash_entry' crashed in its entry function (SIGSEGV)"
            ])
    }

    @Test("plugins conform checks an untrusted coder in its worker: a crash is a reported failure")
    func conformReportsACrash() async throws {
        let plugins = try folder([("crash_decode", .segfault(in: .decode))])
        let result = try await WebImageProcess.run(
            ["plugins", "conform", "crash_decode", plugins.file("trigger.hostile")], plugins: plugins)
        #expect(result.status == 1)
        #expect(
            result.outputLines.contains(
                "FAIL \(plugins.file("trigger.hostile")): decode: decode threw .pluginCrashed: "
                    + "plugin 'crash_decode' crashed in decode (SIGSEGV)"), "\(result.standardOutput)")
    }

    @Test("plugins conform stops at the disabling of a crashing plugin instead of blaming the files after it")
    func conformStopsWhenThePluginIsDisabled() async throws {
        let plugins = try folder([("crash_decode", .segfault(in: .decode))])
        let triggers = try (1...4).map { index in
            try plugins.write("trigger\(index).hostile", "HOSTX")
            return plugins.file("trigger\(index).hostile")
        }
        let result = try await WebImageProcess.run(
            ["plugins", "conform", "crash_decode"] + triggers + [plugins.file("valid.hostile")], plugins: plugins)
        #expect(result.status == 1)
        let crash = "decode: decode threw .pluginCrashed: plugin 'crash_decode' crashed in decode (SIGSEGV)"
        #expect(
            result.outputLines == [
                "FAIL \(triggers[0]): \(crash)",
                "FAIL \(triggers[1]): \(crash)",
                "FAIL \(triggers[2]): \(crash)",
                "FAIL \(triggers[3]): sniffing: the plugin was disabled (plugin 'crash_decode' is disabled: its worker "
                    + "failed 3 times (last: plugin 'crash_decode' crashed in decode (SIGSEGV))); no further checks run",
                "SKIP 5 more checks: the plugin was disabled",
                "crash_decode: 10 checks on 5 files, 4 failures, 1 skipped",
            ], "\(result.standardOutput)")
    }
}
