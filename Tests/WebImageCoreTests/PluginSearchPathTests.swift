import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

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

    @Test(
        "an app's search path: its own folder first and trusted, the environment's untrusted, the install folder, its build's plugins"
    )
    func applicationSearchPath() throws {
        let build = try TemporaryDirectory()
        let manifests = try build.folder("MyApp_WebImagePluginManifests.resources")
        let installed = build.url.deletingLastPathComponent().appendingPathComponent("lib/webimage/plugins").path
        let path = PluginSearchPath.application(
            pluginsDirectory: "/opt/app/plugins", environment: ["WEBIMAGE_PLUGIN_PATH": "/env/one"],
            executablePath: build.file("MyApp"))
        #expect(path.directories == ["/opt/app/plugins", "/env/one", installed, manifests])
        #expect(path.trustedDirectories == ["/opt/app/plugins", installed, manifests])
        #expect(path.libraryDirectories == [manifests: build.path])
        #expect(path.libraryDirectory(forManifestsIn: manifests + "/") == build.path)
        #expect(path.libraryDirectory(forManifestsIn: "/opt/app/plugins") == "/opt/app/plugins")
        let installedOnly = PluginSearchPath.application(environment: [:], executablePath: "/usr/bin/app")
        #expect(installedOnly.directories == ["/usr/lib/webimage/plugins"])
        #expect(installedOnly.libraryDirectories.isEmpty)
    }

    @Test(
        "the worker of plugins in <prefix>/lib/webimage/plugins is <prefix>/bin's, then the one beside the executable")
    func workerCandidates() throws {
        let executable = try #require(PluginSearchPath.currentExecutablePath())
        let beside = URL(fileURLWithPath: executable).deletingLastPathComponent()
            .appendingPathComponent("webimage-plugin-worker").path
        let isolation = PluginIsolation()
        #expect(
            isolation.workerExecutableCandidates(forPluginsIn: "/opt/webimage/lib/webimage/plugins/")
                == ["/opt/webimage/bin/webimage-plugin-worker", beside])
        #expect(isolation.workerExecutableCandidates(forPluginsIn: "/opt/app/plugins") == [beside])
        let explicit = PluginIsolation(workerExecutable: "/opt/app/worker")
        #expect(
            explicit.workerExecutableCandidates(forPluginsIn: "/opt/webimage/lib/webimage/plugins") == [
                "/opt/app/worker"
            ])
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
