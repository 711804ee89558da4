import FoundationEssentials

/// Disk entries with their extended data (HTTP validators, for example), beside the image
/// stores and queries of ``ImageCache``.
extension ImageCache {
    /// The bytes and extended data stored on disk for `key`, read on the cache's I/O queue; nil when missing.
    /// - Throws: ``CacheError``.
    public func diskEntry(forKey key: String) async throws -> DiskCacheEntry? {
        let disk = disk
        return try await onIOQueue { try disk.entry(forKey: key) }
    }

    /// ``diskEntry(forKey:)`` on the calling thread (after the I/O queue's earlier work).
    /// - Throws: ``CacheError``.
    public func diskEntryNow(forKey key: String) throws -> DiskCacheEntry? {
        let disk = disk
        return try ioQueue.sync { try disk.entry(forKey: key) }
    }

    /// The image in memory for `memoryKey`, answered on the calling thread, else the disk
    /// entry of `diskKey` read on the I/O queue and handed to `completion` there.
    public func lookUp(memoryKey: String?, diskKey: String?, completion: @escaping @Sendable (CacheLookup) -> Void) {
        if let memoryKey, let image = imageFromMemory(forKey: memoryKey) {
            completion(.memory(image))
            return
        }
        guard let diskKey else {
            completion(.miss)
            return
        }
        let disk = disk
        ioQueue.async {
            if let entry = try? disk.entry(forKey: diskKey) {
                completion(.disk(entry))
            } else {
                completion(.miss)
            }
        }
    }

    /// The extended data stored with the disk entry of `key`; nil when there is none.
    /// - Throws: ``CacheError``.
    public func extendedData(forKey key: String) async throws -> Data? {
        try await diskEntry(forKey: key)?.extendedData
    }

    /// Queues the store of encoded `bytes` (stored as they are, without a copy into `Data`)
    /// and `extendedData` (nil: none) on disk for `key` on the I/O queue and returns at once;
    /// `completion` runs on that queue once the store ended, with its ``CacheError`` or nil.
    public func storeInBackground(
        bytes: [UInt8], extendedData: Data?, forKey key: String,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let disk = disk
        ioQueue.async {
            do throws(CacheError) {
                try disk.store(bytes: bytes, extendedData: extendedData, forKey: key)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    /// Stores encoded `data` and `extendedData` (nil: none) on disk for `key`, on the I/O queue.
    /// - Throws: ``CacheError``.
    public func storeData(_ data: Data, extendedData: Data?, forKey key: String) async throws {
        let disk = disk
        try await onIOQueue { try disk.store(data, extendedData: extendedData, forKey: key) }
    }
}
