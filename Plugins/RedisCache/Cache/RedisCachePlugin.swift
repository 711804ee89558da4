import CRedisShim
import CWebImagePlugin
import WebImagePluginDescriptor

/// The bundled `redis` cache: the disk cache kind on a Redis server (hiredis), for a fleet of
/// hosts sharing one cache. Every entry is one `SET <namespace>:<key> <frame> EX <max-age>`
/// whose frame carries the extended data and an XXH3 checksum, so a read is one `GET`; a value
/// that fails its checks (or a key of another Redis type) is removed and read as a miss whose
/// message says why. It takes leases (``WebImageCore/PluginDiskCache/claim(_:for:)``): one
/// `SET lease:<namespace>:<key> <token> NX PX <ms>` each.
///
/// Options (``CacheConfiguration`` keys):
/// - `url`: `redis://HOST:PORT[/DB]`; default `redis://127.0.0.1:6379`.
/// - `namespace`: the key prefix (`<namespace>:`); default `default`.
/// - `timeout-ms`: the connect and command timeout; default 50. A slow or dead server fails
///   every call with `ioError` or `timedOut` ("does not answer"; one warning logged per
///   outage) and reconnection waits 100 ms, doubling to 5 s.
/// - `max-value-size` (bytes, the 32-byte header included): larger entries are not stored
///   (`TOO_LARGE`); default 1 MiB; 0: none.
/// - `max-age` (seconds): the entries' `EX`; default one week; 0: no expiry.
///
/// The size limit is Redis' own: set `maxmemory` and `maxmemory-policy allkeys-lru` on the server.
public enum RedisCachePlugin: LinkedDiskCachePlugin {
    /// The manifest's name.
    public static let pluginName = "redis"
    public static let pluginVersion = "1.0.0"

    /// The C table, with `host` as the allocator of read buffers and the log.
    public static func table(host: UnsafePointer<webimage_host>) -> UnsafePointer<webimage_disk_cache> {
        redis_cache_table(host)
    }
}
