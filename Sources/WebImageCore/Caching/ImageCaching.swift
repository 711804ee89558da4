import Foundation

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
}

extension ImageCaching {
    public func storeData(_ data: Data, extendedData: Data?, forKey key: String) async throws {
        try await store(nil, data: data, forKey: key, cacheType: .disk)
    }

    public func extendedData(forKey key: String) async throws -> Data? { nil }
}
