/// Switches of one ``ImageManager`` request (SDWebImage's `SDWebImageOptions`). The
/// kebab-case ``name`` of each is what `webimage get --options` takes. Default: none.
public struct ImageManagerOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Download a URL even when an earlier download of it failed for a reason that repeats
    /// (the failed-URL list).
    public static let retryFailed = ImageManagerOptions(rawValue: 1 << 0)
    /// Queue the download (and the decode and transform) at low priority.
    public static let lowPriority = ImageManagerOptions(rawValue: 1 << 1)
    /// Queue the download (and the decode and transform) at high priority.
    public static let highPriority = ImageManagerOptions(rawValue: 1 << 2)
    /// Decode partial images while the bytes arrive and deliver them as partial (never cached).
    public static let progressiveLoad = ImageManagerOptions(rawValue: 1 << 3)
    /// Deliver the cached image first, then revalidate it with the server using the validators
    /// stored with it; a 304 ends with no second completion, a new image is delivered and cached.
    public static let refreshCached = ImageManagerOptions(rawValue: 1 << 4)
    /// Send and store cookies.
    public static let handleCookies = ImageManagerOptions(rawValue: 1 << 5)
    /// Accept TLS certificates that do not verify.
    public static let allowInvalidSSL = ImageManagerOptions(rawValue: 1 << 6)
    /// Transform animated images too (by default they are delivered untransformed).
    public static let transformAnimatedImage = ImageManagerOptions(rawValue: 1 << 7)
    /// Decode images with more pixels than the context's scale-down limit (default
    /// ``ImageContext/defaultScaleDownPixelLimit``) scaled down to it.
    public static let scaleDownLargeImages = ImageManagerOptions(rawValue: 1 << 8)
    /// On a memory hit, also read the encoded bytes from the disk cache into the result's `data`.
    public static let queryMemoryData = ImageManagerOptions(rawValue: 1 << 9)
    /// With ``ImageManager/load(_:options:context:progress:completed:)``: a memory hit completes
    /// on the caller's thread before `load` returns.
    public static let queryMemoryDataSync = ImageManagerOptions(rawValue: 1 << 10)
    /// With ``ImageManager/load(_:options:context:progress:completed:)``: the disk cache is read
    /// and decoded on the caller's thread, and a hit completes before `load` returns.
    public static let queryDiskDataSync = ImageManagerOptions(rawValue: 1 << 11)
    /// Never download: a cache miss fails with ``ImageManagerError/Kind/notInCache``.
    public static let fromCacheOnly = ImageManagerOptions(rawValue: 1 << 12)
    /// Do not query the caches (the result is still stored).
    public static let fromLoaderOnly = ImageManagerOptions(rawValue: 1 << 13)
    /// Do not decode downloaded bytes: the result has the data and no image (for filling the
    /// disk cache only).
    public static let avoidDecodeImage = ImageManagerOptions(rawValue: 1 << 14)
    /// Decode only the first frame of an animation: the result is a still image, kept in
    /// memory (and stored transformed) under ``CacheKeys/firstFrameKey(_:)``, apart from the
    /// full animation; the downloaded bytes stay under the plain key.
    public static let decodeFirstFrameOnly = ImageManagerOptions(rawValue: 1 << 15)
    /// Decode every frame of an animation at once into ``ImageResult/animation``.
    public static let preloadAllFrames = ImageManagerOptions(rawValue: 1 << 16)
    /// Complete only after the stores to the caches finished.
    public static let waitStoreCache = ImageManagerOptions(rawValue: 1 << 17)
    /// Use a copy from the disk cache only while it is fresh: for the lifetime its response
    /// gave (`Cache-Control` `s-maxage`, else `max-age`, else `Expires`; `no-cache` is 0), else
    /// ``ImageManagerConfiguration/defaultFreshnessLifetime``. A stale copy (or one of unknown
    /// age) is revalidated with the server before the request completes, with the validators
    /// stored with it (`If-None-Match`, `If-Modified-Since`; none: an unconditional request):
    /// on 304 the cached bytes are used and their freshness renewed, on a new image that image
    /// is used and replaces them (``ImageMetrics/revalidation`` says which). A response with
    /// `Cache-Control: no-store` is not kept on disk. Memory hits are used as they are.
    public static let revalidateStale = ImageManagerOptions(rawValue: 1 << 18)

    /// Every option with its kebab-case name, in declaration order.
    public static let named: [(name: String, option: ImageManagerOptions)] = [
        ("retry-failed", .retryFailed), ("low-priority", .lowPriority), ("high-priority", .highPriority),
        ("progressive-load", .progressiveLoad), ("refresh-cached", .refreshCached),
        ("handle-cookies", .handleCookies), ("allow-invalid-ssl", .allowInvalidSSL),
        ("transform-animated-image", .transformAnimatedImage), ("scale-down-large-images", .scaleDownLargeImages),
        ("query-memory-data", .queryMemoryData), ("query-memory-data-sync", .queryMemoryDataSync),
        ("query-disk-data-sync", .queryDiskDataSync), ("from-cache-only", .fromCacheOnly),
        ("from-loader-only", .fromLoaderOnly), ("avoid-decode-image", .avoidDecodeImage),
        ("decode-first-frame-only", .decodeFirstFrameOnly), ("preload-all-frames", .preloadAllFrames),
        ("wait-store-cache", .waitStoreCache), ("revalidate-stale", .revalidateStale),
    ]

    /// The options of a comma-separated list of names (`refresh-cached,low-priority`); empty
    /// items are ignored.
    /// - Throws: ``ImageManagerError`` `.invalidOption` naming the first unknown name.
    public init(names list: String) throws(ImageManagerError) {
        self = []
        for item in list.split(separator: ",") {
            let name = item.trimmingWhitespace
            guard let option = Self.named.first(where: { $0.name == name })?.option else {
                throw ImageManagerError(
                    .invalidOption,
                    "unknown option '\(name)'; the options are \(Self.named.map(\.name).joined(separator: ", "))")
            }
            insert(option)
        }
    }

    /// The kebab-case names of the options set, in declaration order.
    public var names: [String] { Self.named.filter { contains($0.option) }.map(\.name) }

    /// The download priority the options ask for: high wins over low; default normal.
    var priority: ImagePriority {
        contains(.highPriority) ? .high : contains(.lowPriority) ? .low : .normal
    }
}

extension Substring {
    /// The text without the spaces and tabs at its start and end.
    package var trimmingWhitespace: String { String(self).trimmingWhitespace }
}
