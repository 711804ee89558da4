import Foundation
import Synchronization
import WebImageCore
import WebImageTestSupport

/// A real nginx serving test images on 127.0.0.1, the bundled plugins (memory, disk, curl,
/// coders) in a temporary plugins folder, and a fresh disk cache folder, with a manager over them.
final class ManagerHarness: Sendable {
    let plugins: PluginsFolder
    let host: PluginHost
    let nginx: NginxServer
    let cacheFolder: TemporaryDirectory
    let manager: ImageManager
    /// The images nginx serves under `/static/` (and slowly under `/slow/`), by name.
    let images: [String: [UInt8]]

    init(
        configuration: ImageManagerConfiguration = ImageManagerConfiguration(),
        downloader: ImageDownloaderConfiguration = ImageDownloaderConfiguration(),
        defaultTransformer: (any ImageTransformer)? = nil
    ) throws {
        (plugins, host) = try Self.bundledPlugins()
        images = try TestImages.make(coders: host.makeCodersManager())
        nginx = try NginxServer(files: images)
        cacheFolder = try TemporaryDirectory()
        manager = try Self.makeManager(
            host: host, cacheFolder: cacheFolder, configuration: configuration, downloader: downloader,
            defaultTransformer: defaultTransformer)
    }

    /// Every bundled plugin in a temporary folder, and a host that trusts it as an install
    /// folder: in-process, as users run them (crash isolation has its own suites; a worker per
    /// harness only adds start-up time that a loaded machine stretches).
    static func bundledPlugins() throws -> (PluginsFolder, PluginHost) {
        let plugins = try PluginsFolder()
        try plugins.addAllBundled()
        return (
            plugins,
            PluginHost(searchPath: PluginSearchPath(directories: [plugins.path], trustedDirectories: [plugins.path]))
        )
    }

    /// A new manager (empty memory cache) over the same plugins and disk cache folder.
    func makeManager(
        configuration: ImageManagerConfiguration = ImageManagerConfiguration(),
        downloader: ImageDownloaderConfiguration = ImageDownloaderConfiguration(),
        defaultTransformer: (any ImageTransformer)? = nil
    ) throws -> ImageManager {
        try Self.makeManager(
            host: host, cacheFolder: cacheFolder, configuration: configuration, downloader: downloader,
            defaultTransformer: defaultTransformer)
    }

    /// The slow URLs' rates are divided by ``HangBound/scale`` (``slowURL(_:bytesPerSecond:)``),
    /// so the downloader's low-speed limit is too, and its total deadline is multiplied by it.
    private static func makeManager(
        host: PluginHost, cacheFolder: TemporaryDirectory, configuration: ImageManagerConfiguration,
        downloader: ImageDownloaderConfiguration, defaultTransformer: (any ImageTransformer)?
    ) throws -> ImageManager {
        var downloader = downloader
        downloader.minimumBytesPerSecond = max(1, UInt32(Double(downloader.minimumBytesPerSecond) / HangBound.scale))
        downloader.maxTransferTime = downloader.maxTransferTime.map { $0 * HangBound.scale }
        var cacheConfiguration = ImageCacheConfiguration()
        cacheConfiguration.directory = cacheFolder.path
        return try ImageManager(
            host: host, cacheConfiguration: cacheConfiguration, downloaderConfiguration: downloader,
            defaultTransformer: defaultTransformer, configuration: configuration)
    }

    /// The image cache of `manager` (the harness's by default).
    func imageCache(_ manager: ImageManager? = nil) -> ImageCache {
        (manager ?? self.manager).cache as! ImageCache
    }

    /// `http://127.0.0.1:port/static/<name>`.
    func url(_ name: String) -> URL { URL(string: "\(nginx.http)/static/\(name)")! }

    /// The same file served at 20 KB/s.
    func slowURL(_ name: String) -> URL { URL(string: "\(nginx.http)/slow/\(name)")! }

    /// `name` served at `bytesPerSecond` (divided by ``HangBound/scale`` for slow builds), so that
    /// requests started together all join its one download even on a loaded machine.
    func slowURL(_ name: String, bytesPerSecond: Int) -> URL {
        let rate = max(1, Int(Double(bytesPerSecond) / HangBound.scale))
        return URL(string: "\(nginx.http)/slow/\(name)?rate=\(rate)")!
    }

    /// The requests nginx logged for `/static/<name>` (or another path), `uri|accept|if-none-match|status` each,
    /// once at least `atLeast` are there (``NginxServer/requests(matching:atLeast:within:)``).
    func requests(_ name: String, atLeast: Int) -> [String] {
        nginx.requests(matching: name.hasPrefix("/") ? name : "/static/\(name)", atLeast: atLeast)
    }

    /// Replaces a served file (a new ETag and Last-Modified).
    func replace(_ name: String, with bytes: [UInt8]) throws {
        try nginx.replace(name, with: bytes)
    }
}

/// Test images encoded at test time with the coder plugins, plus fixtures.
enum TestImages {
    static func make(coders: CodersManager) throws -> [String: [UInt8]] {
        var images: [String: [UInt8]] = [:]
        images["photo.jpg"] = try encode(gradient(width: 640, height: 480, opaque: true), "jpeg", coders)
        images["other.jpg"] = try encode(gradient(width: 320, height: 200, opaque: true), "jpeg", coders)
        images["icon.png"] = try encode(gradient(width: 64, height: 48, opaque: false), "png", coders)
        images["wide.png"] = try encode(gradient(width: 200, height: 100, opaque: false), "png", coders)
        images["anim.gif"] = [UInt8](
            try Data(contentsOf: BuildProducts.repository.appendingPathComponent("Examples/sample-images/orbit.gif")))
        images["not-an-image.png"] = Array("this is text, not a PNG".utf8)
        images["reversed.bin"] = images["icon.png"]!.reversed()
        images["progressive.jpg"] = try progressive(try encode(noise(width: 320, height: 240), "jpeg", coders))
        return images
    }

    /// A `width` × `height` RGBA8 gradient (translucent unless `opaque`).
    static func gradient(width: Int, height: Int, opaque: Bool) throws -> PixelBuffer {
        let pixels = try PixelBuffer(width: width, height: height, format: .rgba8)
        for y in 0..<height {
            let row = pixels.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                row[x * 4] = UInt8(x * 255 / max(1, width - 1))
                row[x * 4 + 1] = UInt8(y * 255 / max(1, height - 1))
                row[x * 4 + 2] = UInt8((x + y) % 256)
                row[x * 4 + 3] = opaque ? 255 : UInt8(128 + (x % 128))
            }
        }
        return pixels
    }

    /// An opaque `width` × `height` image of pseudo-random pixels (large when compressed).
    static func noise(width: Int, height: Int) throws -> PixelBuffer {
        let pixels = try PixelBuffer(width: width, height: height, format: .rgba8)
        var state: UInt32 = 2_463_534_242
        for y in 0..<height {
            let row = pixels.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                row[x * 4] = UInt8(truncatingIfNeeded: state)
                row[x * 4 + 1] = UInt8(truncatingIfNeeded: state >> 8)
                row[x * 4 + 2] = UInt8(truncatingIfNeeded: state >> 16)
                row[x * 4 + 3] = 255
            }
        }
        return pixels
    }

    static func encode(_ pixels: PixelBuffer, _ format: String, _ coders: CodersManager) throws -> [UInt8] {
        [UInt8](Data(try coders.encode(pixels, options: EncodeOptions(format: format))))
    }

    /// `jpeg` rewritten as a progressive JPEG with `jpegtran`.
    static func progressive(_ jpeg: [UInt8]) throws -> [UInt8] {
        let folder = try TemporaryDirectory()
        let input = folder.file("in.jpg")
        let output = folder.file("out.jpg")
        try Data(jpeg).write(to: URL(fileURLWithPath: input))
        _ = try ChildProcess.output(of: "/usr/bin/jpegtran", ["-progressive", "-outfile", output, input])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }
}

/// Collects what a request delivered, in order.
final class Recorder: Sendable {
    private let events = TrackedMutex<[String]>([])
    private let results = TrackedMutex<[Result<ImageResult, ImageManagerError>]>([])
    private let partials = TrackedMutex<[DecodedImage]>([])

    var progress: @Sendable (ImageEvent) -> Void {
        { event in
            switch event {
            case .partial(let image): self.partials.withLock { $0.append(image) }
            case .progress: self.events.withLock { $0.append("progress") }
            case .completed: break
            }
        }
    }

    var completed: @Sendable (Result<ImageResult, ImageManagerError>) -> Void {
        { result in self.results.withLock { $0.append(result) } }
    }

    var completions: [Result<ImageResult, ImageManagerError>] { results.withLock { $0 } }
    var partialImages: [DecodedImage] { partials.withLock { $0 } }

    /// Waits up to `seconds` (times ``HangBound/scale``) for `count` completions (a bound for a
    /// loaded machine, not a timing check).
    func wait(for count: Int, seconds: Double = 120) async -> [Result<ImageResult, ImageManagerError>] {
        let deadline = ContinuousClock.now + HangBound.scaled(.milliseconds(Int(seconds * 1000)))
        while completions.count < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return completions
    }
}

extension Result where Success == ImageResult, Failure == ImageManagerError {
    var value: ImageResult? { try? get() }
    var errorKind: ImageManagerError.Kind? {
        if case .failure(let error) = self { return error.kind }
        return nil
    }
}

/// A disk cache whose stores (and, with `gatesQueries`, reads) wait until ``open()``: shows
/// when a completion comes relative to the store, or what cancelling during a query does.
final class GatedDiskCache: DiskCache {
    let inner: any DiskCache
    private let gatesQueries: Bool
    private let gate = DispatchSemaphore(value: 0)
    private let stored = Atomic<Int>(0)
    private let queried = Atomic<Int>(0)

    init(_ inner: any DiskCache, gatesQueries: Bool = false) {
        self.inner = inner
        self.gatesQueries = gatesQueries
    }

    func open() { gate.signal() }
    var storeCount: Int { stored.load(ordering: .relaxed) }
    /// Reads started so far.
    var queryCount: Int { queried.load(ordering: .relaxed) }

    func entry(forKey key: String) throws(CacheError) -> DiskCacheEntry? {
        queried.add(1, ordering: .relaxed)
        if gatesQueries {
            gate.wait()
            gate.signal()
        }
        return try inner.entry(forKey: key)
    }
    func store(_ data: Data, extendedData: Data?, forKey key: String) throws(CacheError) {
        gate.wait()
        gate.signal()
        try inner.store(data, extendedData: extendedData, forKey: key)
        stored.add(1, ordering: .relaxed)
    }
    func contains(_ key: String) throws(CacheError) -> Bool { try inner.contains(key) }
    func remove(_ key: String) throws(CacheError) { try inner.remove(key) }
    func removeAll() throws(CacheError) { try inner.removeAll() }
    func removeExpired() throws(CacheError) { try inner.removeExpired() }
    func totals() throws(CacheError) -> CacheTotals { try inner.totals() }
    func path(forKey key: String) -> String? { inner.path(forKey: key) }
    func items() throws(CacheError) -> [DiskCacheItem] { try inner.items() }
}
