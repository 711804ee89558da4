import WebImageCLISupport
import WebImageCore

/// The one warning of a `get` or `prefetch` run whose stores to the cache failed (a full or
/// read-only file system...): the images were delivered, but are loaded again next time.
enum StoreFailureWarning {
    /// Writes `warning: <n> stores to the cache failed, the first: <reason>` on standard error
    /// once, when any of `counters`' stores failed.
    static func print(_ counters: PipelineCounters) {
        guard counters.storeFailures > 0 else { return }
        let reason = counters.firstStoreFailure?.message ?? "unknown"
        Diagnostics.writeToStandardError(
            "warning: \(counters.storeFailures) stores to the cache failed, the first: "
                + Diagnostics.singleLine(reason) + "\n")
    }
}
