/// What a read of a plugin's disk cache found (``PluginDiskCache/lookup(_:)``): the entry, or
/// the backend's reason for a miss, for tools that show why an entry is not served.
public enum DiskCacheLookup: Sendable, Equatable {
    case found(DiskCacheEntry)
    /// No entry: `not in the cache`, `expired`, or what was wrong with an entry the backend
    /// removed (`corrupt entry removed: checksum mismatch`).
    case missing(reason: String)
}
