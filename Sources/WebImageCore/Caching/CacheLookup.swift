import FoundationEssentials

/// What ``ImageCaching/lookUp(memoryKey:diskKey:completion:)`` found: the image in memory,
/// else the entry on disk, else nothing.
public enum CacheLookup: Sendable {
    /// The decoded image kept in memory under the memory key.
    case memory(DecodedImage)
    /// The encoded bytes and extended data stored on disk under the disk key.
    case disk(DiskCacheEntry)
    /// In neither, or the cache failed (a failed lookup is a miss, as in a query).
    case miss
}
