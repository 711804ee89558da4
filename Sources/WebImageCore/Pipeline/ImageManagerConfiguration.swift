#if canImport(Glibc)
    import Glibc
#endif

/// How an ``ImageManager`` is set up and runs its stages: the one value an app sets before
/// the first use of ``ImageManager/shared`` (``ImageManager/configureShared(_:)``) to choose
/// its plugins folder, its cache folder and limits, its download and decode limits.
///
/// ```swift
/// var configuration = ImageManagerConfiguration()
/// configuration.pluginsDirectory = "/opt/myapp/plugins"
/// configuration.cache.directory = "/var/cache/myapp"
/// configuration.cache.diskSizeLimit = 200 << 20
/// configuration.downloader.maxTransferTime = .seconds(20)
/// try ImageManager.configureShared(configuration)
/// ```
public struct ImageManagerConfiguration: Sendable {
    /// The app's own plugins folder, searched first; its plugins are trusted as the app's
    /// choice and run in-process (``PluginSearchPath/application(pluginsDirectory:environment:executablePath:)``),
    /// for managers made without a host (``ImageManager/shared``, ``ImageManager/init(configuration:)``).
    /// Default nil: the plugins SwiftPM built with the app, the install folder next to the
    /// executable and `WEBIMAGE_PLUGIN_PATH` only.
    public var pluginsDirectory: String?
    /// The memory and disk caches: limits, the disk folder (``ImageCacheConfiguration/directory``,
    /// default `$WEBIMAGE_CACHE_DIR`, `$XDG_CACHE_HOME/webimage` or `~/.cache/webimage`), the
    /// plugins behind them. Default ``ImageCacheConfiguration/init()``. Used when the manager
    /// makes its cache from plugins.
    public var cache = ImageCacheConfiguration()
    /// The downloader's limits (time, connections per host, retries...). Default
    /// ``ImageDownloaderConfiguration/init()``. Used when the manager makes its downloader from plugins.
    public var downloader = ImageDownloaderConfiguration()

    /// Most decodes at once; default the number of cores.
    public var maxConcurrentDecodes = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// Most transforms at once; default 2.
    public var maxConcurrentTransforms = 2
    /// Most downloads started for decoding and not decoding yet: running, or finished with
    /// their bytes waiting for a decoder. Further downloads wait (by priority, then in the
    /// downloader's order), so downloads faster than decoding do not pile their bytes up in
    /// memory: set it for long lists of large images (1,000 photos of 5 MB prefetched from a
    /// fast server would otherwise hold 5 GB). One host holds at most the bound less a third
    /// of it (2 of 3, 6 of 8), so other hosts' downloads still start while its downloads
    /// stall. Default nil: no bound, as SDWebImage and Nuke.
    /// A bound costs throughput: on two cores, 1,000 thumbnails from a local nginx took 0-6 %
    /// longer with a bound of 8 to 32 (docs/performance.md).
    public var maxDownloadsAwaitingDecode: Int?
    /// Least time between two partial decodes of one progressive download (Nuke 13 also
    /// skips while a partial decode runs); default 0.1 seconds.
    public var progressiveDecodeInterval: Duration = .milliseconds(100)
    /// What a transform may allocate, checked before it runs: each transformer's output and
    /// scratch (an animation's: every frame's output) against the decode's byte limits, and
    /// the process's concurrent budget. Default ``TransformLimits/init()`` (1 GiB a transform,
    /// 512 MiB for an animation's frames, ``ConcurrentByteBudget/shared``).
    public var transformLimits = TransformLimits()
    /// What every decode starts from: its limits (pixels, bytes, frames, animation bytes,
    /// time), pixel format and byte budget; each request sets its thumbnail and first-frame
    /// choice on top. Default ``DecodeOptions/init(pixelFormat:thumbnail:appliesOrientation:maxPixelCount:firstFrameOnly:)``
    /// (100 megapixels, 1 GiB, 5,000 frames, 512 MiB of frames, 30 seconds).
    public var decodeOptions = DecodeOptions()
    /// How long a copy in the disk cache stays fresh when its response named no lifetime (no
    /// `Cache-Control` `max-age`/`s-maxage`, no `Expires`), for requests with
    /// ``ImageManagerOptions/revalidateStale``. Default one hour.
    public var defaultFreshnessLifetime: Duration = .seconds(3600)

    public init() {}
}
