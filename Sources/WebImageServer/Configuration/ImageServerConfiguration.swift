import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// Everything `webimage serve` is set up with. Each setting has one name, the same as its
/// flag without `--` (`max-concurrent`), as its key in the JSON file (`--config FILE`) and,
/// upper-cased with `_` for `-` and `WEBIMAGE_SERVE_` before it, as its environment
/// variable (`WEBIMAGE_SERVE_MAX_CONCURRENT`); ``ImageServerSettings`` reads them by that name.
///
/// The defaults are secure: no key means no server (unless ``allowUnsigned``), sources on
/// loopback, private, link-local and other special addresses are refused, and every source
/// and decode is bounded.
public struct ImageServerConfiguration: Sendable, Equatable {
    /// `listen`: the address and port to serve on, `HOST:PORT` (`[::1]:8080` for IPv6); port 0
    /// picks a free one, printed at start. Default `127.0.0.1:8080`.
    public var listen = "127.0.0.1:8080"
    /// `key` and `salt`: the signing key pairs, each hexadecimal, paired in order; any pair may
    /// sign a URL (key rotation). Default none: the server refuses to start unless ``allowUnsigned``.
    public var keys: [String] = []
    public var salts: [String] = []
    /// `allow-unsigned`: accept any signature segment (imgproxy's clients send `insecure`).
    /// Default false.
    public var allowUnsigned = false
    /// `allow-source`: URL prefixes a source must start with, on its first request and every
    /// redirect (`*` stands for labels of the host: `https://*.example.com/`). Default none: any
    /// http or https URL.
    public var allowedSources: [String] = []
    /// `allow-private-sources`: let sources be on loopback, private, link-local, multicast or
    /// unspecified addresses. Default false: refused at connect time, for every redirect too.
    public var allowPrivateSources = false
    /// `cache-dir`: the folder of the disk caches (originals and results in namespaces of
    /// their own). Default nil: the disk plugin's (`$WEBIMAGE_CACHE_DIR`, `$XDG_CACHE_HOME/webimage`,
    /// `~/.cache/webimage`).
    public var cacheDirectory: String?
    /// `redis-url`: keep results in Redis (the `redis` plugin) instead of the disk. Default nil.
    public var redisURL: String?
    /// `redis-originals`: keep the originals in that Redis too (namespace `originals`), so that
    /// a fleet fetches a source once for all its results, not once per instance. Needs
    /// `redis-url`. Default false: each instance keeps its originals on disk.
    public var redisOriginals = false
    /// `redis-timeout`: seconds a Redis connect or command may take before the instance goes
    /// on without Redis (a miss, a write dropped; see docs/serving.md). Default 0.05 (50 ms,
    /// the `redis` plugin's `timeout-ms`).
    public var redisTimeout = 0.05
    /// `max-concurrent`: the most images processed at once. Default the number of cores.
    public var maxConcurrent = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// `max-queue`: the most requests waiting for one of those places; beyond it 503 with
    /// `Retry-After`. Default 256.
    public var maxQueue = 256
    /// `request-timeout`: seconds a request may take before it is answered 504. Default 30.
    public var requestTimeout = 30.0
    /// `max-source-bytes`: the largest source accepted, checked on `Content-Length` and while
    /// it streams. Default 64 MiB.
    public var maxSourceBytes: UInt64 = 64 << 20
    /// `source-timeout`: seconds a source's download may take. Default 20.
    public var sourceTimeout = 20.0
    /// `max-pixels`, `max-bytes`, `max-frames`, `max-animation-bytes`, `decode-timeout`: the
    /// decode limits of `webimage convert` (0: no limit); defaults those of ``WebImageCore/DecodeOptions``.
    public var maxPixels = DecodeOptions.defaultMaxPixelCount
    public var maxBytes = DecodeOptions.defaultMaxByteCount
    public var maxFrames = DecodeOptions.defaultMaxFrameCount
    public var maxAnimationBytes = DecodeOptions.defaultMaxAnimationByteCount
    public var decodeTimeout = Double(DecodeOptions.defaultTimeLimit.components.seconds)
    /// `cache-control-max-age`: seconds in the `Cache-Control: public, max-age=N` of a result.
    /// Default one year (31,536,000).
    public var cacheControlMaxAge = 31_536_000
    /// `presets-only`: refuse URLs with options other than presets. Default false.
    public var presetsOnly = false
    /// `preset`: named option lists, `NAME=OPTIONS` (`thumb=rs:fill:256:256/q:80`); `default`
    /// applies to every request. Default none.
    public var presets: [String: String] = [:]
    /// `enable-avif`: offer AVIF to clients that accept it. Default false (AVIF encodes are slow).
    public var enableAVIF = false
    /// `result-memory-bytes`: the encoded results kept in memory. Default 256 MiB.
    public var resultMemoryBytes: UInt64 = 256 << 20
    /// `drain-timeout`: seconds a SIGTERM or SIGINT waits for requests in flight before the
    /// server exits. Default 10.
    public var drainTimeout = 10.0
    /// `source-max-age`: seconds a kept original stays fresh when its origin named no lifetime
    /// (no `Cache-Control` `s-maxage`/`max-age`, no `Expires`); a stale original is revalidated
    /// with the origin (a conditional GET) by the next request that needs it. 0: every time.
    /// Default one hour (3,600): a source changed in place shows in new results within the
    /// hour, for at most one small request (mostly a 304) per source an hour, and only on
    /// result misses.
    public var sourceMaxAge = 3600.0

    public init() {}

    /// The decode options every decode starts from, with these limits.
    public var decodeOptions: DecodeOptions {
        DecodeOptions().limited(
            pixels: maxPixels, bytes: maxBytes, frames: maxFrames, animationBytes: maxAnimationBytes,
            seconds: decodeTimeout)
    }
}
