import CDiskShim
import CWebImagePlugin
import WebImagePluginDescriptor

/// The bundled `disk` cache: one directory per namespace, atomic writes, every read verified
/// (length, and the XXH3 checksum once per file version and process), hard size and count limits kept by an index shared between
/// processes, least recently accessed entries trimmed by the write that crosses a limit.
///
/// Options (``CacheConfiguration`` keys):
/// - `directory`: default `$WEBIMAGE_CACHE_DIR`, else `$XDG_CACHE_HOME/webimage`, else `~/.cache/webimage`.
/// - `namespace`: the folder inside it; default `default`.
/// - `max-size` (bytes), `max-count`: default 0, no limit.
/// - `max-age` (seconds): default 604800, one week; 0 means no limit.
/// - `expire-type`: `access`, `modification` (default, as SDWebImage) or `creation`.
/// - `trim-ratio`: the fraction of the limits a trim goes down to; default 0.5.
/// - `read-only-paths`: colon-separated folders searched after the main one.
/// - `migrate-from`: a folder moved into place when the namespace folder does not exist yet.
/// - `xattr`: `on` (default: extended data in the `user.webimage.extended` attribute, or in the
///   file when the file system refuses it) or `off` (always in the file).
public enum DiskCachePlugin: LinkedDiskCachePlugin {
    /// The manifest's name.
    public static let pluginName = "disk"
    public static let pluginVersion = "1.0.0"

    /// The C table, with `host` as the allocator of read buffers and the log.
    public static func table(host: UnsafePointer<webimage_host>) -> UnsafePointer<webimage_disk_cache> {
        disk_cache_table(host)
    }

    /// The file name of `key`: the hex SHA-256 of the key plus its path extension (SDWebImage's rule).
    public static func fileName(forKey key: String) -> String {
        var key = key
        let capacity = Int(DISK_CACHE_NAME_CAPACITY)
        // Twice the name's capacity: the name, then the message of a failure (which the
        // name's capacity rules out).
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 2 * capacity) { buffer in
            let name = buffer.baseAddress!
            let message = name + capacity
            message.initialize(to: 0)
            var error = webimage_error(message: message, message_capacity: capacity)
            let status = key.withUTF8 { utf8 in
                utf8.withMemoryRebound(to: CChar.self) {
                    disk_cache_file_name($0.baseAddress!, $0.count, name, capacity, &error)
                }
            }
            precondition(status == WEBIMAGE_STATUS_OK, "disk cache: \(String(cString: message))")
            return String(cString: name)
        }
    }
}
