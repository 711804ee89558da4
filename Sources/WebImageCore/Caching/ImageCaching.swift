import Foundation

/// What an image cache does, so several can be chained (``ImageCachesManager``) and a host
/// app can bring its own (SDWebImage's `SDImageCache` protocol).
public protocol ImageCaching: Sendable {
    func query(_ key: String, options: ImageCacheQuery) async throws -> ImageCacheResult?
    func store(_ image: DecodedImage?, data: Data?, forKey key: String, cacheType: ImageCacheType) async throws
    func remove(_ key: String, fromDisk: Bool) async throws
    func clearMemory()
    func clearDisk() async throws
    func contains(_ key: String) async throws -> ImageCacheType
}
