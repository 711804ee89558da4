import Dispatch
import FoundationEssentials
import WebImageCore

/// Where the server keeps processed images, as encoded bytes: a memory tier (the `memory`
/// plugin, holding ``ServedImage`` values at their byte count) before a disk tier (the
/// `disk` plugin in the namespace `results`, or the `redis` plugin). The originals are the
/// image manager's own cache, in another namespace.
///
/// The disk tier fails open: a read that fails (Redis down, or slower than the plugin's
/// `timeout-ms`) is a miss and a write that fails is dropped; each is reported to
/// ``tierFailed`` (the server counts them in `/metrics`). The `redis` plugin itself tries a
/// server that failed again only after a back-off (100 ms doubling to 5 s), so an outage costs
/// a request at most one timeout, not one per request, and Redis is used again once it answers.
struct ResultCache: Sendable {
    /// The tier a result came from, as `Server-Timing` and the access log name it.
    enum Tier: String, Sendable {
        case memory, disk, miss
    }

    let memory: any MemoryCache
    let disk: any DiskCache
    /// Told of every disk-tier read or write that failed (not of a miss, nor of an entry too
    /// large for the tier).
    let tierFailed: @Sendable (CacheError) -> Void
    /// Disk work runs here, off the request's threads.
    private let ioQueue = DispatchQueue(label: "webimage.serve.results", attributes: .concurrent)

    init(memory: any MemoryCache, disk: any DiskCache, tierFailed: @escaping @Sendable (CacheError) -> Void = { _ in })
    {
        self.memory = memory
        self.disk = disk
        self.tierFailed = tierFailed
    }

    /// The result of `key` in the memory tier, without waiting.
    func memoryValue(forKey key: String) -> ServedImage? {
        memory.value(forKey: key) as? ServedImage
    }

    /// The result of `key` and the tier it came from; a disk hit is put in memory. A disk or
    /// Redis error counts as a miss (the request is then processed again), reported to ``tierFailed``.
    func lookup(_ key: String) async -> (ServedImage, Tier)? {
        if let image = memoryValue(forKey: key) { return (image, .memory) }
        let disk = disk
        let read: Result<DiskCacheEntry?, CacheError> = await withCheckedContinuation { continuation in
            ioQueue.async {
                continuation.resume(returning: Result { () throws(CacheError) in try disk.entry(forKey: key) })
            }
        }
        if case .failure(let error) = read { tierFailed(error) }
        guard let entry = try? read.get(), let image = ServedImage(data: entry.data, extendedData: entry.extendedData)
        else {
            return nil
        }
        try? memory.setValue(image, forKey: key, cost: UInt64(image.bytes.count))
        return (image, .disk)
    }

    /// The disk tier when it takes leases (the `redis` plugin): misses are then made once
    /// across the instances sharing it (``ImageService/makeOnce(_:plan:target:key:)``).
    var leases: PluginDiskCache? {
        guard let cache = disk as? PluginDiskCache, cache.takesLeases else { return nil }
        return cache
    }

    /// Takes the lease of `key` for `duration` on the I/O queue: true when taken, false when
    /// another instance holds it, nil when the tier takes no leases or failed (reported to
    /// ``tierFailed``): the caller then makes the result itself.
    func claim(_ key: String, for duration: Duration) async -> Bool? {
        guard let leases else { return nil }
        let taken: Result<Bool, CacheError> = await withCheckedContinuation { continuation in
            ioQueue.async {
                continuation.resume(returning: Result { () throws(CacheError) in try leases.claim(key, for: duration) })
            }
        }
        if case .failure(let error) = taken { tierFailed(error) }
        return try? taken.get()
    }

    /// Whether the leases of ``leases`` can be renewed (``renew(_:for:)``).
    var renewsLeases: Bool { leases?.renewsLeases ?? false }

    /// Makes the lease of `key` this instance holds end `duration` from now, on the I/O queue:
    /// true when it did, false when this instance no longer holds it, nil when the tier does
    /// not renew leases or failed (reported to ``tierFailed``).
    func renew(_ key: String, for duration: Duration) async -> Bool? {
        guard let leases, leases.renewsLeases else { return nil }
        let renewed: Result<Bool, CacheError> = await withCheckedContinuation { continuation in
            ioQueue.async {
                continuation.resume(returning: Result { () throws(CacheError) in try leases.renew(key, for: duration) })
            }
        }
        if case .failure(let error) = renewed { tierFailed(error) }
        return try? renewed.get()
    }

    /// Ends the lease of `key` this instance holds, on the I/O queue; a failure is reported
    /// to ``tierFailed`` (the lease then ends with its time).
    func release(_ key: String) async {
        guard let leases else { return }
        let released: Result<Void, CacheError> = await withCheckedContinuation { continuation in
            ioQueue.async {
                continuation.resume(returning: Result { () throws(CacheError) in try leases.release(key) })
            }
        }
        if case .failure(let error) = released { tierFailed(error) }
    }

    /// Keeps `image` for `key`: in memory at once, on disk on the I/O queue.
    /// - Throws: the disk's ``CacheError`` (the memory tier refusing an entry too large is not
    ///   an error), reported to ``tierFailed`` unless the entry is too large for the disk tier.
    func store(_ image: ServedImage, forKey key: String) async throws(CacheError) {
        try? memory.setValue(image, forKey: key, cost: UInt64(image.bytes.count))
        let disk = disk
        let write: Result<Void, CacheError> = await withCheckedContinuation { continuation in
            ioQueue.async {
                continuation.resume(
                    returning: Result { () throws(CacheError) in
                        try disk.store(bytes: image.bytes, extendedData: image.extendedData, forKey: key)
                    })
            }
        }
        if case .failure(let error) = write {
            if error.kind != .tooLarge { tierFailed(error) }
            throw error
        }
    }
}
