#if canImport(Glibc)
    import Glibc
#endif

/// How an ``ImageDownloader`` behaves (SDWebImageDownloaderConfig's settings).
public struct ImageDownloaderConfiguration: Sendable {
    /// Which queued download starts first among equal priorities.
    public enum ExecutionOrder: Sendable {
        /// First in, first out (the default).
        case fifo
        /// Last in, first out.
        case lifo
    }

    /// Most downloads running at once; default 6.
    public var maxConcurrentDownloads = 6
    /// Most connections open at once to one host (name and port), sent to the loader with
    /// each request; default 6. The curl plugin applies the latest request's value to all
    /// its transfers in the process.
    public var maxConnectionsPerHost: UInt32 = 6
    /// Default `.fifo`.
    public var executionOrder = ExecutionOrder.fifo
    /// Sent with every request; default `Accept: image/*,*/*;q=0.8`.
    public var headers: HTTPHeaders = ["Accept": "image/*,*/*;q=0.8"]
    /// Default 10 seconds.
    public var connectTimeout: Duration = .seconds(10)
    /// The window of the low-speed limit: a transfer fails ``ImageLoadingError/Kind/timedOut``
    /// ("slower than 1024 B/s for 15 s") when fewer than ``minimumBytesPerSecond`` arrive on
    /// average over this long, so also when no byte arrives for this long; default 15 seconds
    /// (whole seconds for the curl plugin).
    public var idleTimeout: Duration = .seconds(15)
    /// The least average speed in bytes per second over ``idleTimeout`` (curl's
    /// `CURLOPT_LOW_SPEED_LIMIT`); default 1024. 1 gives the idle timeout alone (no byte for
    /// ``idleTimeout``), which a server sending 2 bytes a second never trips.
    public var minimumBytesPerSecond: UInt32 = 1024
    /// Most time for a whole transfer, from its hand-over to the loader to its last byte, so
    /// also time it waits behind the loader's ``maxConnectionsPerHost`` (curl's `--max-time`,
    /// URLSession's resource timeout); it then fails
    /// ``ImageLoadingError/Kind/timedOut`` ("transfer took longer than 60 s (--max-time)").
    /// Each retry has its own. Default 60 seconds; nil for none.
    public var maxTransferTime: Duration? = .seconds(60)
    /// Most downloads of one host (scheme, host and port) running at once, so that slow
    /// downloads of one host never hold every slot while other hosts' downloads wait; nil
    /// (the default) for ``maxConcurrentDownloads`` less a third of it (4 of 6), at least 1.
    public var maxConcurrentDownloadsPerHost: Int?
    /// Status codes that are a success; default 200..<400.
    public var acceptableStatusCodes: Set<Int> = Set(200..<400)
    /// Media types (lowercase, no parameters) that are a success; nil (the default) accepts any.
    public var acceptableContentTypes: Set<String>?
    /// Most body bytes; default the smaller of 200 MB and 10% of physical memory. Checked
    /// against Content-Length and while the body streams.
    public var maxResponseSize: UInt64 = ImageDownloaderConfiguration.defaultMaxResponseSize
    /// Least time between two progress reports of one download; default 0.1 seconds.
    public var minimumProgressInterval: Duration = .milliseconds(100)
    /// Changes each request before it is sent; returning nil fails the download with
    /// ``ImageLoadingError/Kind/requestModifierFailed``. Default none.
    public var requestModifier: (@Sendable (LoadRequest) -> LoadRequest?)?
    /// Changes each response head before it is checked; returning nil fails the download with
    /// ``ImageLoadingError/Kind/badStatus``. Default none.
    public var responseModifier: (@Sendable (LoadResponse) -> LoadResponse?)?
    /// Turns the body into image bytes (for example base64 or inflate); returning nil fails
    /// with ``ImageLoadingError/Kind/decryptionFailed``. Default none.
    public var decryptor: (@Sendable ([UInt8], LoadResponse) -> [UInt8]?)?
    /// Retries of transient failures; default none.
    public var retry = RetryPolicy()
    /// Limits how fast downloads start; default none (Nuke's setting is ``TokenBucket/Rate/nuke``:
    /// 80 per second, bursts of 25).
    public var rateLimit: TokenBucket.Rate?
    /// Where requests may go; default every host and no `file:` URLs (see
    /// ``DestinationPolicy``; an image server fetching URLs others give it should set
    /// ``DestinationPolicy/denyPrivateAddresses``).
    public var destinationPolicy = DestinationPolicy()
    /// Most bytes (UTF-8) of a URL other than `data:`; default 65,536 (64 KiB, within what
    /// servers accept). A longer URL fails with ``ImageLoadingError/Kind/invalidURL`` before
    /// anything is sent.
    public var maxURLLength = ImageDownloaderConfiguration.defaultMaxURLLength
    /// Most bytes of a `data:` URL, checked before it is decoded; default 8 MiB (8,388,608).
    /// A `data:` URL longer than this, or than twice ``maxResponseSize`` (its payload could not
    /// fit: base64 takes 4 bytes for 3), fails with ``ImageLoadingError/Kind/invalidURL``.
    public var maxDataURLLength = ImageDownloaderConfiguration.defaultMaxDataURLLength

    public init() {}

    /// Downloads of one host that may run at once: ``maxConcurrentDownloadsPerHost`` or its
    /// default, at least 1.
    var downloadsPerHost: Int {
        max(1, maxConcurrentDownloadsPerHost ?? HostShareQueue<Void>.defaultShare(of: maxConcurrentDownloads))
    }

    /// 65,536 bytes.
    public static let defaultMaxURLLength = 65_536
    /// 8 MiB: 8,388,608 bytes.
    public static let defaultMaxDataURLLength = 8 << 20

    /// The smaller of 200 MB and 10% of physical memory.
    public static var defaultMaxResponseSize: UInt64 {
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let pageSize = sysconf(Int32(_SC_PAGESIZE))
        let tenth = pages > 0 && pageSize > 0 ? UInt64(pages) * UInt64(pageSize) / 10 : .max
        return min(200_000_000, tenth)
    }
}
