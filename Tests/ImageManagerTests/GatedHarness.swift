import Foundation
import WebImageTestSupport

@testable import WebImageCore

/// The pipeline with no server: the bundled coder and cache plugins, a fresh disk cache folder
/// and a ``GatedImageLoader`` serving ``TestImages`` (plus `large.bin`), whose gates the test
/// opens (the downloader's idle timeout and deadline are lifted, so a held transfer waits for
/// the test alone). Coalescing, priority and cancellation are tested here by waiting for states (a
/// stage's subscriptions, the loader's transfers); nginx suites test the same pipeline over HTTP.
final class GatedHarness: Sendable {
    let plugins: PluginsFolder
    let host: PluginHost
    let loader: GatedImageLoader
    let cacheFolder: TemporaryDirectory
    let manager: ImageManager
    /// The files the loader serves, by name.
    let images: [String: [UInt8]]

    /// - Parameter open: the files served at once; default none (every transfer waits for ``GatedImageLoader/open(_:)``).
    init(
        open: Set<String> = [], configuration: ImageManagerConfiguration = ImageManagerConfiguration(),
        downloader: ImageDownloaderConfiguration = ImageDownloaderConfiguration()
    ) throws {
        (plugins, host) = try ManagerHarness.bundledPlugins()
        var images = try TestImages.make(coders: host.makeCodersManager())
        images["large.bin"] = [UInt8](repeating: 0x5A, count: 1_000_000)
        self.images = images
        loader = GatedImageLoader(files: images, open: open)
        cacheFolder = try TemporaryDirectory()
        manager = try Self.makeManager(
            host: host, loader: loader, cacheFolder: cacheFolder, configuration: configuration, downloader: downloader)
    }

    /// A new manager (empty memory cache) over the same plugins, loader and disk cache folder.
    func makeManager(
        configuration: ImageManagerConfiguration = ImageManagerConfiguration(),
        downloader: ImageDownloaderConfiguration = ImageDownloaderConfiguration()
    ) throws -> ImageManager {
        try Self.makeManager(
            host: host, loader: loader, cacheFolder: cacheFolder, configuration: configuration, downloader: downloader)
    }

    private static func makeManager(
        host: PluginHost, loader: GatedImageLoader, cacheFolder: TemporaryDirectory,
        configuration: ImageManagerConfiguration, downloader: ImageDownloaderConfiguration
    ) throws -> ImageManager {
        var cacheConfiguration = ImageCacheConfiguration()
        cacheConfiguration.directory = cacheFolder.path
        // A transfer held at its gate waits for the test, not for the downloader's limits.
        var downloader = downloader
        downloader.idleTimeout = .seconds(3600)
        downloader.maxTransferTime = nil
        let coders = host.makeCodersManager()
        return ImageManager(
            cache: try ImageCache(host: host, coders: coders, configuration: cacheConfiguration),
            downloader: ImageDownloader(loaders: [loader], configuration: downloader), coders: coders,
            configuration: configuration)
    }

    /// The image cache of `manager` (the harness's by default).
    func imageCache(_ manager: ImageManager? = nil) -> ImageCache {
        (manager ?? self.manager).cache as! ImageCache
    }

    /// Waits until `manager` (the harness's by default) runs nothing (``ImageManager/isRunning``
    /// false) within 30 seconds (times ``HangBound/scale``); true when it did. A bounded
    /// ``ImageManager/waitUntilIdle()``: a run that never ends fails the test instead of hanging it.
    func becomesIdle(_ manager: ImageManager? = nil) async -> Bool {
        let manager = manager ?? self.manager
        let deadline = ContinuousClock.now + HangBound.scaled(.seconds(30))
        while manager.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        return !manager.isRunning
    }

    /// `gated://origin/<name>`.
    func url(_ name: String) -> URL { GatedImageLoader.url(name) }

    /// The shared stages of a manager, by what they coalesce.
    enum Stage {
        case image, download, decode, transform
    }

    /// Waits until `stage` of `manager` (the harness's by default) had `count` subscriptions,
    /// started or joined, within ``GatedImageLoader/waitBound``; true when it did.
    func waitForSubscriptions(_ count: Int, to stage: Stage, of manager: ImageManager? = nil) async -> Bool {
        let manager = manager ?? self.manager
        let deadline = ContinuousClock.now + HangBound.scaled(GatedImageLoader.waitBound)
        while ContinuousClock.now < deadline {
            let subscribed =
                switch stage {
                case .image: manager.images.subscribedCount
                case .download: manager.downloads.subscribedCount
                case .decode: manager.decodes.subscribedCount
                case .transform: manager.transforms.subscribedCount
                }
            if subscribed >= count { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }
}
