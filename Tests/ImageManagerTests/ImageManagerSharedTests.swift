import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// ``ImageManager/shared``: one instance, made over the standard plugin search path. It runs
/// in a child process of its own (an exit test), whose environment names the plugins folder
/// and the disk cache folder, so the process-wide instance and variables touch no other test.
@Suite("ImageManager.shared")
struct ImageManagerSharedTests {
    @Test("the same instance every time, wired with the bundled memory + disk caches and the curl loader")
    func sharedInstance() async {
        await #expect(processExitsWith: .success) {
            let plugins = try PluginsFolder()
            try plugins.addAllBundled()
            let cacheFolder = try TemporaryDirectory()
            setenv("WEBIMAGE_PLUGIN_PATH", plugins.path, 1)
            setenv("WEBIMAGE_CACHE_DIR", cacheFolder.path, 1)

            let manager = try ImageManager.shared
            try #require(try ImageManager.shared === manager)
            let cache = try #require(manager.cache as? ImageCache)
            try #require(cache.memory != nil)
            try #require((manager.downloader.loaders.first as? PluginLoader)?.pluginName == "curl")

            let images = try TestImages.make(coders: manager.coders)
            let nginx = try NginxServer(files: images)
            let url = "\(nginx.http)/static/icon.png"
            let first = try await ImageManager.shared.image(for: url, options: .waitStoreCache)
            try #require(first.cacheType == .none && first.image?.width == 64 && first.image?.height == 48)
            try #require(first.data.map([UInt8].init) == images["icon.png"])
            // The disk cache lives in $WEBIMAGE_CACHE_DIR.
            let stored = try #require(cache.path(forKey: url))
            try #require(stored.hasPrefix(cacheFolder.path + "/"))
            try #require(FileManager.default.fileExists(atPath: stored))
            let second = try await ImageManager.shared.image(for: url)
            try #require(second.cacheType == .memory && second.image?.width == 64)
            try #require(nginx.requests(matching: "/static/icon.png", atLeast: 1).count == 1)
            try #require(manager.counters.downloads == 1 && manager.counters.decodes == 1)
        }
    }

    @Test(
        "configureShared sets the plugins folder (trusted), the cache folder and limits before first use, and refuses after"
    )
    func configuredBeforeFirstUse() async {
        await #expect(processExitsWith: .success) {
            let plugins = try PluginsFolder()
            try plugins.addAllBundled()
            let cacheFolder = try TemporaryDirectory()
            var configuration = ImageManagerConfiguration()
            configuration.pluginsDirectory = plugins.path
            configuration.cache.directory = cacheFolder.path
            configuration.maxConcurrentTransforms = 1
            try ImageManager.configureShared(configuration)

            let manager = try ImageManager.shared
            try #require(manager.configuration.pluginsDirectory == plugins.path)
            try #require(manager.configuration.maxConcurrentTransforms == 1)
            let images = try TestImages.make(coders: manager.coders)
            let nginx = try NginxServer(files: images)
            let url = "\(nginx.http)/static/icon.png"
            let first = try await ImageManager.shared.image(for: url, options: .waitStoreCache)
            try #require(first.cacheType == .none && first.image?.width == 64 && first.image?.height == 48)
            let cache = try #require(manager.cache as? ImageCache)
            let stored = try #require(cache.path(forKey: url))
            try #require(stored.hasPrefix(cacheFolder.path + "/"))

            let refusal = { () -> ImageManagerError? in
                do throws(ImageManagerError) {
                    try ImageManager.configureShared(ImageManagerConfiguration())
                    return nil
                } catch {
                    return error
                }
            }()
            try #require(
                refusal?.description
                    == "invalid option: the shared manager is already in use; configure it before its first use")
        }
    }

    @Test("a manager made from a configuration trusts its plugins folder: its coders run in-process")
    func pluginsFolderIsTrusted() throws {
        let plugins = try PluginsFolder()
        try plugins.addPNGAndJPEG()
        let host = PluginHost(searchPath: .application(pluginsDirectory: plugins.path, environment: [:]))
        #expect(
            host.plugins(of: .coder).filter { $0.manifestPath.hasPrefix(plugins.path + "/") }.map(\.trust) == [
                .trusted, .trusted,
            ])
        #expect(!host.isIsolated("png") && !host.isIsolated("jpeg"))
        let untrusted = PluginHost(searchPath: .standard(hostDirectories: [plugins.path], environment: [:]))
        #expect(untrusted.isIsolated("png"))
    }
}
