import WebImageCLISupport
import WebImageCore

/// The one warning of a `get` or `prefetch` run whose cache failed: the images were
/// delivered, but are loaded again next time.
enum CacheFailureWarning {
    /// Writes one line on standard error, or none when the cache never failed:
    /// - when the disk tier failed for more than its stores (a Redis server down: its reads were
    ///   misses too), `warning: the <backend> cache failed <n> times (reads were misses, stores
    ///   were dropped); first: <reason>`;
    /// - when only stores failed (a full or read-only file system), `warning: <n> stores to the
    ///   cache failed, the first: <reason>`.
    static func print(_ manager: ImageManager, backend: String) {
        let counters = manager.counters
        if let disk = (manager.cache as? ImageCache)?.disk as? PluginDiskCache, let first = disk.firstFailure,
            disk.failureCount > counters.storeFailures
        {
            let count = disk.failureCount
            Diagnostics.writeToStandardError(
                "warning: the \(backend) cache failed \(count) \(count == 1 ? "time" : "times") (reads were misses, "
                    + "stores were dropped); first: \(Diagnostics.singleLine(first.message))\n")
        } else if counters.storeFailures > 0 {
            let reason = counters.firstStoreFailure?.message ?? "unknown"
            Diagnostics.writeToStandardError(
                "warning: \(counters.storeFailures) stores to the cache failed, the first: "
                    + Diagnostics.singleLine(reason) + "\n")
        }
    }
}
