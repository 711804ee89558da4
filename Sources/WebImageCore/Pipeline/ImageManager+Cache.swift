import FoundationEssentials

/// Cache lookups and stores of the flow, under the plan's keys.
extension ImageManager {
    /// A cached image found by ``lookup(_:in:lookupKey:memoryKey:spec:type:relay:)``. A class,
    /// so the flow's async frames hold a reference where they held 233 bytes in each slot.
    final class CacheHit: Sendable {
        let payload: DecodedPayload
        let data: Data?
        let cacheType: ImageCacheType
        /// The validators and freshness stored with a disk entry; nil for a memory hit or an
        /// entry stored without them.
        let record: CacheValidators?

        init(payload: DecodedPayload, data: Data?, cacheType: ImageCacheType, record: CacheValidators? = nil) {
            self.payload = payload
            self.data = data
            self.cacheType = cacheType
            self.record = record
        }
    }

    /// True when ``ImageManagerOptions/revalidateStale`` must revalidate `hit` before it is
    /// used: a disk entry past its freshness, or of unknown age.
    func isStale(_ plan: ImageRequestPlan, _ hit: CacheHit) -> Bool {
        plan.options.contains(.revalidateStale) && hit.cacheType == .disk && !isFresh(hit.record)
    }

    /// True when `record` says its copy is fresh now (``ImageManagerConfiguration/defaultFreshnessLifetime``
    /// when its response named no lifetime).
    func isFresh(_ record: CacheValidators?) -> Bool {
        let seconds = configuration.defaultFreshnessLifetime.components
        let defaultLifetime = Double(seconds.seconds) + Double(seconds.attoseconds) / 1e18
        return record?.isFresh(at: Date().timeIntervalSince1970, defaultLifetime: defaultLifetime) ?? false
    }

    /// The image stored under `memoryKey` in memory (a memory-only ``ImageCaching/query(_:options:)``),
    /// else the bytes under `lookupKey` on disk (``ImageCaching/diskEntry(forKey:)``) decoded as
    /// `spec` says, then kept in memory when `type` includes it; nil for a miss. Disk bytes no
    /// coder decodes are a miss.
    @inline(never)
    func lookup(
        _ plan: ImageRequestPlan, in cache: any ImageCaching, lookupKey: String, memoryKey: String,
        spec: ImageRequestPlan.DecodeSpec, type: ImageCacheType, relay: PriorityRelay
    ) async throws(ImageManagerError) -> CacheHit? {
        counters.countCacheQuery()
        if type.includesMemory,
            let image = try? await cache.query(memoryKey, options: ImageCacheQuery(memoryOnly: true))?.image
        {
            var data: Data?
            if plan.options.contains(.queryMemoryData) {
                data = try? await cache.diskEntry(forKey: lookupKey)?.data
            }
            return CacheHit(
                payload: DecodedPayload(image: image, animation: nil, frameCount: image.frameCountGuess), data: data,
                cacheType: .memory)
        }
        guard type.includesDisk else { return nil }
        guard let entry = try? await cache.diskEntry(forKey: lookupKey) else {
            try Task.checkCancellation(or: ImageManagerError.cancelled)
            return nil
        }
        let bytes = [UInt8](entry.data)
        let payload: DecodedPayload?
        do {
            payload = try await decodedCachedBytes(
                bytes, key: plan.cachedDecodeKey(cache: cache, key: lookupKey, spec: spec), plan: plan, relay: relay)
        } catch  where error.kind == .cancelled {
            throw error
        } catch {
            return nil
        }
        guard let payload else { return nil }
        if type.includesMemory, let image = payload.image {
            try? await cache.store(image, data: nil, forKey: memoryKey, cacheType: .memory)
        }
        return CacheHit(
            payload: payload, data: entry.data, cacheType: .disk,
            record: entry.extendedData.flatMap(CacheValidators.init(extendedData:)))
    }

    /// The memory hit of the plan's final key, looked up on the calling thread; nil when the
    /// plan does not allow a synchronous answer or the image is not in memory.
    func memoryHitNow(_ plan: ImageRequestPlan) -> ImageResult? {
        guard !plan.options.contains(.fromLoaderOnly), !plan.options.contains(.refreshCached),
            !plan.options.contains(.queryMemoryData), plan.queryCacheType.includesMemory,
            let key = plan.finalKey, let image = plan.cache?.imageFromMemory(forKey: key)
        else { return nil }
        counters.countCacheQuery()
        return ImageResult(
            image: image, animation: nil, data: nil, cacheType: .memory, url: plan.url, cacheKey: key,
            scale: plan.scale, frameCount: image.frameCountGuess, metrics: ImageMetrics())
    }

    /// The disk hit of the plan's final key, read and decoded on the calling thread
    /// (``ImageManagerOptions/queryDiskDataSync``); nil for a miss.
    func diskHitNow(_ plan: ImageRequestPlan) -> ImageResult? {
        guard !plan.options.contains(.fromLoaderOnly), !plan.options.contains(.refreshCached),
            plan.queryCacheType.includesDisk, let baseKey = plan.baseKey, let key = plan.finalKey,
            let cache = plan.cache
        else { return nil }
        counters.countCacheQuery()
        let lookupKey = plan.chain.isEmpty ? baseKey : key
        let spec = plan.chain.isEmpty ? plan.decode : ImageRequestPlan.DecodeSpec()
        guard let entry = try? cache.diskEntryNow(forKey: lookupKey),
            !plan.chain.isEmpty || !plan.options.contains(.revalidateStale)
                || isFresh(entry.extendedData.flatMap(CacheValidators.init(extendedData:))),
            let payload = try? decode([UInt8](entry.data), spec: spec, coders: plan.coders, url: plan.urlString),
            let image = payload.image
        else { return nil }
        if plan.queryCacheType.includesMemory { cache.storeInMemory(image, forKey: key) }
        return ImageResult(
            image: image, animation: payload.animation,
            data: plan.decode.thumbnail == nil && plan.chain.isEmpty ? entry.data : nil,
            cacheType: .disk, url: plan.url, cacheKey: key, scale: plan.scale, frameCount: payload.frameCount,
            metrics: ImageMetrics(), animatedImageData: plan.chain.isEmpty && payload.isAnimated ? entry.data : nil)
    }

    /// Stores a downloaded original: the decoded image in memory under the original key (the
    /// thumbnail key for a thumbnail), the downloaded bytes (or the serializer's) on disk under
    /// the base key with the response's validators as extended data
    /// (``ImageCaching/storeData(_:extendedData:forKey:)``); in the store cache type, or the
    /// original store cache type when a transformer runs. Failures are not the request's: they
    /// are counted (``PipelineCounters/storeFailures``).
    ///
    /// When ``storesOriginalWithoutTask(_:)``, the downloaded bytes themselves are handed to the
    /// cache's background store (``ImageCaching/storeInBackground(bytes:extendedData:forKey:completion:)``;
    /// an ``ImageCache`` queues them on its I/O queue without a copy) and counted as background
    /// work until written; otherwise the write is awaited.
    @inline(never)
    func storeOriginal(_ plan: ImageRequestPlan, payload: DecodedPayload, download: DownloadedData) async {
        let transforming = !plan.chain.isEmpty
        guard let baseKey = plan.baseKey, let originalKey = plan.originalKey,
            let cache = transforming ? plan.originalCache : plan.cache
        else { return }
        let type = transforming ? plan.originalStoreCacheType : plan.storeCacheType
        if type.includesMemory, let image = payload.image {
            counters.countStore()
            await countingFailure { try await cache.store(image, data: nil, forKey: originalKey, cacheType: .memory) }
        }
        guard type.includesDisk else { return }
        if storesOriginalWithoutTask(plan) {
            storeInBackground(plan, download: download, in: cache, forKey: baseKey)
            return
        }
        let now = Date().timeIntervalSince1970
        if plan.options.contains(.revalidateStale),
            ResponseFreshness(headers: download.response.headers, receivedAt: now).noStore
        {
            return
        }
        let extendedData = CacheValidators(response: download.response, storedAt: now).extendedData
        var bytes: Data? = Data(download.data)
        if let serializer = plan.serializer, let image = payload.image {
            bytes = serializer.cacheData(for: image, originalData: bytes, key: baseKey)
        }
        guard let bytes else { return }
        counters.countStore()
        await countingFailure { try await cache.storeData(bytes, extendedData: extendedData, forKey: baseKey) }
    }

    /// Stores an untransformed original as ``storeOriginal(_:payload:download:)`` does, without
    /// a task: the image in memory at once (``ImageCaching/storeInMemory(_:forKey:)``), the
    /// downloaded bytes queued for the disk. The flow without a task stores with it.
    func storeOriginalNow(_ plan: ImageRequestPlan, payload: DecodedPayload, download: DownloadedData) {
        guard let baseKey = plan.baseKey, let originalKey = plan.originalKey, let cache = plan.cache else { return }
        if plan.storeCacheType.includesMemory, let image = payload.image {
            counters.countStore()
            cache.storeInMemory(image, forKey: originalKey)
        }
        guard plan.storeCacheType.includesDisk else { return }
        storeInBackground(plan, download: download, in: cache, forKey: baseKey)
    }

    /// Hands the downloaded bytes themselves, with the response's validators, to the cache's
    /// background store (``ImageCaching/storeInBackground(bytes:extendedData:forKey:completion:)``;
    /// an ``ImageCache`` queues them on its I/O queue without a copy), counted as background
    /// work until written; not when ``ImageManagerOptions/revalidateStale`` and the response
    /// says `no-store`.
    private func storeInBackground(
        _ plan: ImageRequestPlan, download: DownloadedData, in cache: any ImageCaching, forKey key: String
    ) {
        let now = Date().timeIntervalSince1970
        if plan.options.contains(.revalidateStale),
            ResponseFreshness(headers: download.response.headers, receivedAt: now).noStore
        {
            return
        }
        let extendedData = CacheValidators(response: download.response, storedAt: now).extendedData
        counters.countStore()
        let background = background
        let counters = counters
        background.begin()
        cache.storeInBackground(bytes: download.data, extendedData: extendedData, forKey: key) { error in
            if let error { counters.countStoreFailure(error) }
            background.end()
        }
    }

    /// Stores the validators of a stale disk copy renewed by a 304 answer with `headers`
    /// (``CacheValidators/renewed(by:at:)``), with the copy's bytes, under the base key of
    /// `cache`, so the copy is fresh again; in the background unless ``ImageManagerOptions/waitStoreCache``.
    @inline(never)
    func renew(_ plan: ImageRequestPlan, _ hit: CacheHit, in cache: any ImageCaching, headers: HTTPHeaders?) async {
        guard let baseKey = plan.baseKey, let data = hit.data, let record = hit.record else { return }
        let extendedData = record.renewed(by: headers, at: Date().timeIntervalSince1970).extendedData
        counters.countStore()
        await store(plan) {
            await self.countingFailure { try await cache.storeData(data, extendedData: extendedData, forKey: baseKey) }
        }
    }

    /// True when the flow stores the original itself, without a task, before completing: an
    /// untransformed image (memory at once, the disk write started in the background) without
    /// a cache serializer (whose code stays off the request's way) and without
    /// ``ImageManagerOptions/waitStoreCache``.
    func storesOriginalWithoutTask(_ plan: ImageRequestPlan) -> Bool {
        plan.chain.isEmpty && plan.serializer == nil && !plan.options.contains(.waitStoreCache)
    }

    /// Stores a transformed image under the final key in the store cache type, encoded for
    /// disk with the serializer, else the context's encode options, else by the cache itself
    /// (``ImageCaching/store(_:data:forKey:cacheType:)`` without data; ``ImageCache/encode(_:)``).
    @inline(never)
    func storeTransformed(_ plan: ImageRequestPlan, image: DecodedImage) async {
        guard let key = plan.finalKey, let cache = plan.cache else { return }
        let type = plan.storeCacheType
        if type.includesMemory {
            counters.countStore()
            await countingFailure { try await cache.store(image, data: nil, forKey: key, cacheType: .memory) }
        }
        guard type.includesDisk else { return }
        var bytes: Data?
        if let serializer = plan.serializer {
            bytes = serializer.cacheData(for: image, originalData: nil, key: key)
            guard bytes != nil else { return }
        } else if let options = plan.encodeOptions {
            bytes = try? Data(plan.coders.encode(image.pixels, options: options))
        }
        counters.countStore()
        if let bytes {
            await countingFailure { try await cache.storeData(bytes, extendedData: nil, forKey: key) }
        } else {
            await countingFailure { try await cache.store(image, data: nil, forKey: key, cacheType: .disk) }
        }
    }

    /// Runs a store; its failure is counted (``PipelineCounters/countStoreFailure(_:)``), not thrown.
    private func countingFailure(_ store: () async throws -> Void) async {
        do {
            try await store()
        } catch {
            counters.countStoreFailure(error)
        }
    }
}

extension DecodedImage {
    /// 1 for a still image; 0 (unknown) for an animation seen without its bytes.
    var frameCountGuess: Int { traits.contains(.animated) ? 0 : 1 }
}

extension Task where Success == Never, Failure == Never {
    /// Throws `error` when the current task is cancelled.
    static func checkCancellation<E: Error>(or error: E) throws(E) {
        if Task.isCancelled { throw error }
    }
}
