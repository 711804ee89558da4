import FoundationEssentials

/// Several image caches used as one (SDWebImage's `SDImageCachesManager`). Caches later in
/// ``caches`` have higher priority. Each operation follows its policy.
public final class ImageCachesManager: ImageCaching {
    /// How an operation runs over the caches (SDWebImage's `SDImageCachesManagerOperationPolicy`).
    public enum Policy: Sendable, Equatable {
        /// One cache after another, highest priority first; a query stops at the first hit.
        case serial
        /// All caches at once; a query answers with the first hit to arrive.
        case concurrent
        /// Only the highest-priority cache (the last).
        case highestOnly
        /// Only the lowest-priority cache (the first).
        case lowestOnly
    }

    public let caches: [any ImageCaching]
    public let queryPolicy: Policy
    public let storePolicy: Policy
    public let removePolicy: Policy
    public let clearPolicy: Policy

    /// Defaults as SDWebImage: queries serial, stores to the highest-priority cache only, removals and clears concurrent.
    public init(
        caches: [any ImageCaching], queryPolicy: Policy = .serial, storePolicy: Policy = .highestOnly,
        removePolicy: Policy = .concurrent, clearPolicy: Policy = .concurrent
    ) {
        self.caches = caches
        self.queryPolicy = queryPolicy
        self.storePolicy = storePolicy
        self.removePolicy = removePolicy
        self.clearPolicy = clearPolicy
    }

    /// The caches `policy` addresses, highest priority first.
    private func targets(_ policy: Policy) -> [any ImageCaching] {
        switch policy {
        case .serial, .concurrent: caches.reversed()
        case .highestOnly: caches.last.map { [$0] } ?? []
        case .lowestOnly: caches.first.map { [$0] } ?? []
        }
    }

    /// The caches a lookup asks one after another: the query policy's, a concurrent one serially.
    private var askedInTurn: [any ImageCaching] { targets(queryPolicy == .concurrent ? .serial : queryPolicy) }

    /// Runs `body` on each cache of `policy`: one after another, or all at once for `.concurrent`.
    private func each(_ policy: Policy, _ body: @escaping @Sendable (any ImageCaching) async throws -> Void)
        async throws
    {
        let caches = targets(policy)
        guard policy == .concurrent else {
            for cache in caches { try await body(cache) }
            return
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for cache in caches { group.addTask { try await body(cache) } }
            try await group.waitForAll()
        }
    }

    public func query(_ key: String, options: ImageCacheQuery = ImageCacheQuery()) async throws -> ImageCacheResult? {
        let caches = targets(queryPolicy)
        guard queryPolicy == .concurrent else {
            for cache in caches {
                if let result = try await cache.query(key, options: options) { return result }
            }
            return nil
        }
        return try await withThrowingTaskGroup(of: ImageCacheResult?.self) { group in
            for cache in caches { group.addTask { try await cache.query(key, options: options) } }
            for try await result in group where result != nil {
                group.cancelAll()
                return result
            }
            return nil
        }
    }

    public func store(_ image: DecodedImage?, data: Data?, forKey key: String, cacheType: ImageCacheType = .all)
        async throws
    {
        try await each(storePolicy) { try await $0.store(image, data: data, forKey: key, cacheType: cacheType) }
    }

    /// Stores on the caches of the store policy, each with the extended data.
    public func storeData(_ data: Data, extendedData: Data?, forKey key: String) async throws {
        try await each(storePolicy) { try await $0.storeData(data, extendedData: extendedData, forKey: key) }
    }

    /// The first extended data found, asking one cache after another in the query policy's order.
    public func extendedData(forKey key: String) async throws -> Data? {
        for cache in askedInTurn {
            if let found = try await cache.extendedData(forKey: key) { return found }
        }
        return nil
    }

    /// The first image found in memory, asking one cache after another in the query policy's order.
    public func imageFromMemory(forKey key: String) -> DecodedImage? {
        for cache in askedInTurn {
            if let found = cache.imageFromMemory(forKey: key) { return found }
        }
        return nil
    }

    /// Keeps `image` in memory in every cache of the store policy.
    public func storeInMemory(_ image: DecodedImage, forKey key: String) {
        for cache in targets(storePolicy) { cache.storeInMemory(image, forKey: key) }
    }

    /// The first disk entry found, asking one cache after another in the query policy's order.
    public func diskEntry(forKey key: String) async throws -> DiskCacheEntry? {
        for cache in askedInTurn {
            if let found = try await cache.diskEntry(forKey: key) { return found }
        }
        return nil
    }

    /// The first disk entry found on the calling thread, asking one cache after another in the
    /// query policy's order.
    public func diskEntryNow(forKey key: String) throws -> DiskCacheEntry? {
        for cache in askedInTurn {
            if let found = try cache.diskEntryNow(forKey: key) { return found }
        }
        return nil
    }

    /// Starts the store on every cache of the store policy at once; `completion` runs once,
    /// after the last, with the first error or nil.
    public func storeInBackground(
        bytes: [UInt8], extendedData: Data?, forKey key: String,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let caches = targets(storePolicy)
        guard !caches.isEmpty else {
            completion(nil)
            return
        }
        let state = TrackedMutex<(left: Int, error: (any Error)?)>((caches.count, nil))
        for cache in caches {
            cache.storeInBackground(bytes: bytes, extendedData: extendedData, forKey: key) { error in
                let (done, first) = state.withLock { state -> (Bool, (any Error)?) in
                    state.left -= 1
                    if state.error == nil { state.error = error }
                    return (state.left == 0, state.error)
                }
                if done { completion(first) }
            }
        }
    }

    public func remove(_ key: String, fromDisk: Bool = true) async throws {
        try await each(removePolicy) { try await $0.remove(key, fromDisk: fromDisk) }
    }

    public func clearMemory() {
        for cache in targets(clearPolicy) { cache.clearMemory() }
    }

    public func clearDisk() async throws {
        try await each(clearPolicy) { try await $0.clearDisk() }
    }

    /// The first answer other than `.none`, asking as the query policy says.
    public func contains(_ key: String) async throws -> ImageCacheType {
        for cache in askedInTurn {
            let found = try await cache.contains(key)
            if found != .none { return found }
        }
        return .none
    }
}
