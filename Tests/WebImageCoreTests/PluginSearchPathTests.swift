import Testing
import WebImageCore

@Suite struct PluginSearchPathTests {
    @Test func hostFoldersThenEnvironmentThenInstallFolder() {
        let path = PluginSearchPath.standard(
            hostDirectories: ["/opt/app/plugins"],
            environment: ["WEBIMAGE_PLUGIN_PATH": "/env/one:/env/two"],
            executablePath: "/usr/local/bin/webimage")
        #expect(path.directories == ["/opt/app/plugins", "/env/one", "/env/two", "/usr/local/lib/webimage/plugins"])
    }

    @Test func repeatsAndEmptyEntriesAreDropped() {
        let path = PluginSearchPath.standard(
            hostDirectories: ["/a", "/a/"], environment: ["WEBIMAGE_PLUGIN_PATH": "::/a:/b"],
            executablePath: "/x/bin/tool")
        #expect(path.directories == ["/a", "/b", "/x/lib/webimage/plugins"])
    }

    @Test func defaultExecutableIsTheRunningProcess() throws {
        let executable = try #require(PluginSearchPath.currentExecutablePath())
        #expect(executable.hasPrefix("/"))
        let path = PluginSearchPath.standard(environment: [:])
        #expect(path.directories.count == 1)
        #expect(path.directories[0].hasSuffix("/lib/webimage/plugins"))
    }

    @Test func onlyTheInstallFolderIsTrustedByDefault() {
        let path = PluginSearchPath.standard(
            hostDirectories: ["/opt/app/plugins"],
            environment: ["WEBIMAGE_PLUGIN_PATH": "/env/one"],
            executablePath: "/usr/local/bin/webimage")
        #expect(path.trustedDirectories == ["/usr/local/lib/webimage/plugins"])
        #expect(path.trust(ofDirectory: "/usr/local/lib/webimage/plugins") == .trusted)
        #expect(path.trust(ofDirectory: "/usr/local/bin/../lib/webimage/plugins/") == .trusted)
        #expect(path.trust(ofDirectory: "/opt/app/plugins") == .untrusted)
        #expect(path.trust(ofDirectory: "/env/one") == .untrusted)
    }

    @Test func trustedHostFoldersComeFirstAndAreTrusted() {
        let path = PluginSearchPath.standard(
            hostDirectories: ["/opt/app/extra"], trustedHostDirectories: ["/opt/app/bundled"],
            environment: [:], executablePath: "/usr/bin/app")
        #expect(path.directories == ["/opt/app/bundled", "/opt/app/extra", "/usr/lib/webimage/plugins"])
        #expect(path.trustedDirectories == ["/opt/app/bundled", "/usr/lib/webimage/plugins"])
    }

    @Test func explicitFoldersAreUntrustedUnlessDeclared() {
        let plain = PluginSearchPath(directories: ["/a", "/b"])
        #expect(plain.trustedDirectories.isEmpty)
        let declared = PluginSearchPath(directories: ["/a", "/b"], trustedDirectories: ["/b/", "/c"])
        #expect(declared.directories == ["/a", "/b", "/c"])
        #expect(declared.trustedDirectories == ["/b", "/c"])
        #expect(declared.trust(ofDirectory: "/a") == .untrusted)
    }
}
