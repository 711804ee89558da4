import CMemoryShim
import CWebImagePlugin
import WebImagePluginDescriptor

/// The bundled `memory` cache: O(1) get and set in a hash table, LRU or CLOCK eviction under a
/// cost limit and a count limit.
///
/// Options (``CacheConfiguration`` keys):
/// - `max-cost` (bytes): default ``defaultCostLimit``, 15% of the memory available to the
///   process (the cgroup's limit when there is one, else physical memory), at most 768 MiB; 0 means no limit.
/// - `max-count`: default 0, no limit.
/// - `max-age` (seconds): entries older than this are misses; default 0, no limit.
/// - `policy`: `lru` (default: a hit moves the entry to the front) or `clock` (second chance,
///   as Nuke 13.0.5: a hit only sets a bit).
/// - `entry-cost-limit`: a fraction of `max-cost`; a single entry costing more is refused
///   (Nuke's `entryCostLimit`); default 0, off.
public enum MemoryCachePlugin: LinkedMemoryCachePlugin {
    /// The manifest's name.
    public static let pluginName = "memory"
    public static let pluginVersion = "1.0.0"

    /// The C table.
    public static var table: UnsafePointer<webimage_memory_cache> { memory_cache_table() }

    /// The cost limit used when `max-cost` is not given, in bytes.
    public static var defaultCostLimit: UInt64 { memory_cache_default_cost_limit() }

    /// The memory available to this process in bytes (the cgroup's limit when lower than physical memory).
    public static var availableMemory: UInt64 { memory_cache_available_memory() }
}
