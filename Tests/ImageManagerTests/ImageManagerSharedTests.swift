import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// ``ImageManager/shared()``: one instance, made over the standard plugin search path. It runs
/// in a child process of its own (an exit test), whose environment names the plugins folder
/// and the disk cache folder, so the process-wide instance and variables touch no other test.
@Suite("ImageManager.shared()")
struct ImageManagerSharedTests {
    @Test("the same instance every time, wired with the bundled memory + disk caches and the curl loader")
    func sharedInstance() async {
        await #expect(processExitsWith: .success) {
            let plugins = try PluginsFolder()
            try plugins.addAllBundled()
            let cacheFolder = try TemporaryDirectory()
            setenv("WEBIMAGE_PLUGIN_PATH", plugins.path, 1)
            setenv("WEBIMAGE_CACHE_DIR", cacheFolder.path, 1)

            let manager = try ImageManager.shared()
            try #require(try ImageManager.shared() === manager)
            let cache = try #require(manager.cache as? ImageCache)
            try #require(cache.memory != nil)
            try #require((manager.downloader.loaders.first as? PluginLoader)?.pluginName == "curl")

            let images = try TestImages.make(coders: manager.coders)
            let nginx = try NginxServer(files: images)
            let url = "\(nginx.http)/static/icon.png"
            let first = try await ImageManager.shared().image(for: url, options: .waitStoreCache)
            try #require(first.cacheType == .none && first.image?.width == 64 && first.image?.height == 48)
            try #require(first.data.map([UInt8].init) == images["icon.png"])
            // The disk cache lives in $WEBIMAGE_CACHE_DIR.
            let stored = try #require(cache.path(forKey: url))
            try #require(stored.hasPrefix(cacheFolder.path + "/"))
            try #require(FileManager.default.fileExists(atPath: stored))
            let second = try await ImageManager.shared().image(for: url)
            try #require(second.cacheType == .memory && second.image?.width == 64)
            try #require(nginx.requests(matching: "/static/icon.png", atLeast: 1).count == 1)
            try #require(manager.counters.downloads == 1 && manager.counters.decodes == 1)
        }
    }
}
