import Foundation
import WebImageCore

/// Where the server keeps processed images, as encoded bytes: a memory tier (the `memory`
/// plugin, holding ``ServedImage`` values at their byte count) before a disk tier (the
/// `disk` plugin in the namespace `results`, or the `redis` plugin). The originals are the
/// image manager's own cache, in another namespace.
struct ResultCache: Sendable {
    /// The tier a result came from, as `Server-Timing` and the access log name it.
    enum Tier: String, Sendable {
        case memory, disk, miss
    }

    let memory: any MemoryCache
    let disk: any DiskCache
    /// Disk work runs here, off the request's threads.
    private let ioQueue = DispatchQueue(label: "webimage.serve.results", attributes: .concurrent)

    init(memory: any MemoryCache, disk: any DiskCache) {
        self.memory = memory
        self.disk = disk
    }

    /// The result of `key` in the memory tier, without waiting.
    func memoryValue(forKey key: String) -> ServedImage? {
        memory.value(forKey: key) as? ServedImage
    }

    /// The result of `key` and the tier it came from; a disk hit is put in memory. A disk or
    /// Redis error counts as a miss (the request is then processed again).
    func lookup(_ key: String) async -> (ServedImage, Tier)? {
        if let image = memoryValue(forKey: key) { return (image, .memory) }
        let disk = disk
        let entry: DiskCacheEntry? = await withCheckedContinuation { continuation in
            ioQueue.async { continuation.resume(returning: (try? disk.entry(forKey: key)) ?? nil) }
        }
        guard let entry, let image = ServedImage(data: entry.data, extendedData: entry.extendedData) else {
            return nil
        }
        try? memory.setValue(image, forKey: key, cost: UInt64(image.bytes.count))
        return (image, .disk)
    }

    /// Keeps `image` for `key`: in memory at once, on disk on the I/O queue.
    /// - Throws: the disk's ``CacheError`` (the memory tier refusing an entry too large is not an error).
    func store(_ image: ServedImage, forKey key: String) async throws {
        try? memory.setValue(image, forKey: key, cost: UInt64(image.bytes.count))
        let disk = disk
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            ioQueue.async {
                continuation.resume(
                    with: Result { try disk.store(bytes: image.bytes, extendedData: image.extendedData, forKey: key) })
            }
        }
    }
}
