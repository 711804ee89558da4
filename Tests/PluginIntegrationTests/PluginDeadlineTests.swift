import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The plugin header's deadline helpers (`webimage_deadline_passed`, `webimage_fail_deadline`)
/// in a plugin built the documented way, `cc -std=c11`, which hides POSIX's CLOCK_MONOTONIC.
@Suite(.ownThread) struct PluginDeadlineTests {
    @Test(
        "a plugin built with -std=c11 sees the host's deadline pass and fails with TIMED_OUT",
        arguments: [PluginIsolation.Policy.none, .all])
    func strictC11PluginHonoursTheDeadline(policy: PluginIsolation.Policy) throws {
        let folder = try PluginsFolder()
        try folder.compileFixture("deadline_spin")
        try folder.writeFixtureManifest(name: "deadline_spin", library: "libdeadline_spin.so")
        let host = PluginHost(
            searchPath: PluginSearchPath(directories: [folder.path]), isolation: PluginIsolation(policy: policy))
        #expect(host.verify().isEmpty)
        var options = DecodeOptions()
        options.timeLimit = .milliseconds(200)
        let error = #expect(throws: ImageCodingError.self) {
            try host.makeCodersManager().decode(Array("FIXT".utf8), options: options)
        }
        #expect(error?.kind == .timedOut)
        #expect(error?.message.contains("the decode passed its deadline") == true, "\(String(describing: error))")
    }
}
