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
}
