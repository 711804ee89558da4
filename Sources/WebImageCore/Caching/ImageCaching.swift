import FoundationEssentials

/// What an image cache does, so several can be chained (``ImageCachesManager``) and a host
/// app can bring its own (SDWebImage's `SDImageCache` protocol).
public protocol ImageCaching: Sendable {
    /// The image of `key` as `options` say (memory only, disk only, decode settings); nil for a miss.
    func query(_ key: String, options: ImageCacheQuery) async throws -> ImageCacheResult?
    func store(_ image: DecodedImage?, data: Data?, forKey key: String, cacheType: ImageCacheType) async throws
    func remove(_ key: String, fromDisk: Bool) async throws
    func clearMemory()
    func clearDisk() async throws
    func contains(_ key: String) async throws -> ImageCacheType

    /// Stores encoded `data` on disk for `key` with `extendedData` beside it (the HTTP
    /// validators an ``ImageManager`` revalidates with; nil: none). Default: ``store(_:data:forKey:cacheType:)``
    /// to the disk, without the extended data.
    func storeData(_ data: Data, extendedData: Data?, forKey key: String) async throws

    /// The extended data stored with the disk entry of `key`; nil when there is none. Default: nil
    /// (a cache that keeps no extended data: refresh-cached then downloads unconditionally).
    func extendedData(forKey key: String) async throws -> Data?

    /// The image in memory for `key`, answered on the calling thread without suspending (the
    /// ``ImageManager``'s memory hits before a request starts, and the `query…Sync` options);
    /// nil for a miss. Default: nil (the cache answers through ``query(_:options:)`` only).
    func imageFromMemory(forKey key: String) -> DecodedImage?

    /// Keeps `image` in memory for `key`, at once where the cache can (after a disk hit read on
    /// the calling thread, so that the next request finds it in memory). Default:
    /// ``store(_:data:forKey:cacheType:)`` to memory, in a task of its own.
    func storeInMemory(_ image: DecodedImage, forKey key: String)

    /// The encoded bytes and extended data stored on disk for `key`, which the ``ImageManager``
    /// decodes as its request says; nil for a miss. Default: the bytes of a disk-only
    /// ``query(_:options:)`` (which decodes them once more) with ``extendedData(forKey:)``.
    func diskEntry(forKey key: String) async throws -> DiskCacheEntry?

    /// ``diskEntry(forKey:)`` read on the calling thread (``ImageManagerOptions/queryDiskDataSync``);
    /// nil for a miss. Default: nil (the cache reads its disk asynchronously only).
    func diskEntryNow(forKey key: String) throws -> DiskCacheEntry?

    /// Starts storing encoded `bytes` (a download's, stored without a copy where the cache can)
    /// and `extendedData` (nil: none) on disk for `key`, and returns at once; `completion` runs
    /// once when the store ended, with its error or nil. Default: ``storeData(_:extendedData:forKey:)``
    /// in a task of its own.
    func storeInBackground(
        bytes: [UInt8], extendedData: Data?, forKey key: String,
        completion: @escaping @Sendable ((any Error)?) -> Void)

    /// Looks `memoryKey` up in memory (as a memory-only ``query(_:options:)``; nil: memory is
    /// not asked), else `diskKey` on disk (as ``diskEntry(forKey:)``; nil: disk is not asked),
    /// and calls `completion` once with what it found; a failure is a miss. Without a task
    /// where the cache can: the ``ImageManager`` goes on from `completion` to its download.
    /// Default: both asked in a task of its own.
    func lookUp(memoryKey: String?, diskKey: String?, completion: @escaping @Sendable (CacheLookup) -> Void)
}

extension ImageCaching {
    public func storeData(_ data: Data, extendedData: Data?, forKey key: String) async throws {
        try await store(nil, data: data, forKey: key, cacheType: .disk)
    }

    public func extendedData(forKey key: String) async throws -> Data? { nil }

    public func imageFromMemory(forKey key: String) -> DecodedImage? { nil }

    public func diskEntry(forKey key: String) async throws -> DiskCacheEntry? {
        guard let found = try await query(key, options: ImageCacheQuery(diskOnly: true)), let data = found.data else {
            return nil
        }
        return DiskCacheEntry(data: data, extendedData: try await extendedData(forKey: key))
    }

    public func diskEntryNow(forKey key: String) throws -> DiskCacheEntry? { nil }

    public func storeInMemory(_ image: DecodedImage, forKey key: String) {
        Task { try? await store(image, data: nil, forKey: key, cacheType: .memory) }
    }

    public func storeInBackground(
        bytes: [UInt8], extendedData: Data?, forKey key: String,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        Task {
            do {
                try await storeData(Data(bytes), extendedData: extendedData, forKey: key)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    public func lookUp(memoryKey: String?, diskKey: String?, completion: @escaping @Sendable (CacheLookup) -> Void) {
        Task {
            if let memoryKey, let image = try? await query(memoryKey, options: ImageCacheQuery(memoryOnly: true))?.image
            {
                completion(.memory(image))
            } else if let diskKey, let entry = try? await diskEntry(forKey: diskKey) {
                completion(.disk(entry))
            } else {
                completion(.miss)
            }
        }
    }
}
