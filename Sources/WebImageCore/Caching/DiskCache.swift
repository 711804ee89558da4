import FoundationEssentials

/// Encoded image bytes plus optional extended data per key: SDWebImage's `SDDiskCache`
/// protocol. The bundled `disk` and `redis` plugins conform through ``PluginDiskCache``; a
/// host app's own type can conform in-process.
///
/// Misses are nil, never errors; an entry that fails the backend's checks is a miss.
public protocol DiskCache: Sendable {
    /// The bytes and extended data stored for `key`, or nil.
    func entry(forKey key: String) throws(CacheError) -> DiskCacheEntry?
    /// Stores `data` and `extendedData` (nil: none) for `key`, replacing what was there.
    func store(_ data: Data, extendedData: Data?, forKey key: String) throws(CacheError)
    /// ``store(_:extendedData:forKey:)`` for bytes held in an array (a download's), which a
    /// backend that only reads them can store without copying them into `Data` first. The
    /// default copies them and calls ``store(_:extendedData:forKey:)``.
    func store(bytes: [UInt8], extendedData: Data?, forKey key: String) throws(CacheError)
    func contains(_ key: String) throws(CacheError) -> Bool
    /// Removes `key`; no error when it was not there.
    func remove(_ key: String) throws(CacheError)
    func removeAll() throws(CacheError)
    /// Removes entries older than the age limit, then trims to the limits when over them.
    func removeExpired() throws(CacheError)
    func totals() throws(CacheError) -> CacheTotals
    /// Where the entry of `key` is or would be stored; nil when the backend has no files.
    func path(forKey key: String) -> String?
    /// Every entry's name (a file name or a key), key when known, size and times.
    func items() throws(CacheError) -> [DiskCacheItem]
}

extension DiskCache {
    public func store(bytes: [UInt8], extendedData: Data?, forKey key: String) throws(CacheError) {
        try store(Data(bytes), extendedData: extendedData, forKey: key)
    }
}

/// One entry read from a disk cache.
public struct DiskCacheEntry: Sendable, Equatable {
    /// The encoded bytes.
    public var data: Data
    /// SDWebImage's `extendedData` (HTTP validators, for example); nil when none was stored.
    public var extendedData: Data?

    public init(data: Data, extendedData: Data? = nil) {
        self.data = data
        self.extendedData = extendedData
    }
}

/// What a disk cache lists about one entry.
public struct DiskCacheItem: Sendable, Equatable {
    /// The entry's name in the backend: a file name for `disk`, a key for `redis`.
    public var name: String
    /// Bytes stored, the backend's framing included.
    public var size: UInt64
    /// Seconds since the Unix epoch.
    public var accessTime: Int64
    public var modificationTime: Int64
    public var creationTime: Int64
    /// The cache key the entry was stored under; nil when the backend does not know it (a
    /// `disk` entry on a file system without extended attributes, or written with `xattr=off`).
    public var key: String?

    public init(
        name: String, size: UInt64, accessTime: Int64, modificationTime: Int64, creationTime: Int64,
        key: String? = nil
    ) {
        self.name = name
        self.size = size
        self.accessTime = accessTime
        self.modificationTime = modificationTime
        self.creationTime = creationTime
        self.key = key
    }
}
