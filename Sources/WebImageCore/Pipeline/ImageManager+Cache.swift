import Foundation

/// Cache lookups and stores of the flow, under the plan's keys.
extension ImageManager {
    /// A cached image found by ``lookup(_:in:lookupKey:memoryKey:spec:type:relay:)``.
    struct CacheHit: Sendable {
        var payload: DecodedPayload
        var data: Data?
        var cacheType: ImageCacheType
    }

    /// The image stored under `memoryKey` in memory, else the bytes under `lookupKey` on disk
    /// decoded as `spec` says (then kept in memory when `type` includes it); nil for a miss.
    /// Disk bytes no coder decodes are a miss.
    func lookup(
        _ plan: ImageRequestPlan, in cache: any ImageCaching, lookupKey: String, memoryKey: String,
        spec: ImageRequestPlan.DecodeSpec, type: ImageCacheType, relay: PriorityRelay
    ) async throws(ImageManagerError) -> CacheHit? {
        counters.countCacheQuery()
        guard let imageCache = cache as? ImageCache else {
            let query = ImageCacheQuery(
                memoryOnly: type == .memory, firstFrameOnly: spec.firstFrameOnly, thumbnail: spec.thumbnail,
                maxPixelCount: spec.scaleDownPixelLimit, diskOnly: type == .disk)
            guard let found = try? await cache.query(lookupKey, options: query) else {
                try Task.checkCancellation(or: ImageManagerError.cancelled)
                return nil
            }
            return CacheHit(
                payload: DecodedPayload(image: found.image, animation: nil, frameCount: found.image.frameCountGuess),
                data: found.data, cacheType: found.cacheType)
        }
        if type.includesMemory, let image = imageCache.imageFromMemory(forKey: memoryKey) {
            var data: Data?
            if plan.options.contains(.queryMemoryData) {
                data = try? await imageCache.diskEntry(forKey: lookupKey)?.data
            }
            return CacheHit(
                payload: DecodedPayload(image: image, animation: nil, frameCount: image.frameCountGuess), data: data,
                cacheType: .memory)
        }
        guard type.includesDisk else { return nil }
        guard let entry = try? await imageCache.diskEntry(forKey: lookupKey) else {
            try Task.checkCancellation(or: ImageManagerError.cancelled)
            return nil
        }
        let bytes = [UInt8](entry.data)
        let payload: DecodedPayload?
        do {
            payload = try await decodedCachedBytes(
                bytes, key: plan.cachedDecodeKey(cache: imageCache, key: lookupKey, spec: spec), plan: plan,
                relay: relay)
        } catch  where error.kind == .cancelled {
            throw error
        } catch {
            return nil
        }
        guard let payload else { return nil }
        if type.includesMemory, let image = payload.image { imageCache.storeInMemory(image, forKey: memoryKey) }
        return CacheHit(payload: payload, data: entry.data, cacheType: .disk)
    }

    /// The memory hit of the plan's final key, looked up on the calling thread; nil when the
    /// plan does not allow a synchronous answer or the image is not in memory.
    func memoryHitNow(_ plan: ImageRequestPlan) -> ImageResult? {
        guard !plan.options.contains(.fromLoaderOnly), !plan.options.contains(.refreshCached),
            !plan.options.contains(.queryMemoryData), plan.queryCacheType.includesMemory,
            let key = plan.finalKey, let cache = plan.cache as? ImageCache,
            let image = cache.imageFromMemory(forKey: key)
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
            let cache = plan.cache as? ImageCache
        else { return nil }
        counters.countCacheQuery()
        let lookupKey = plan.chain.isEmpty ? baseKey : key
        let spec = plan.chain.isEmpty ? plan.decode : ImageRequestPlan.DecodeSpec()
        guard let entry = try? cache.diskEntryNow(forKey: lookupKey),
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
    /// When ``storesOriginalWithoutTask(_:)``, the downloaded bytes themselves (not a copy) are
    /// queued for the disk on the cache's I/O queue and counted as background work until
    /// written, and the call never suspends; otherwise the write is awaited.
    func storeOriginal(_ plan: ImageRequestPlan, payload: DecodedPayload, download: DownloadedData) async {
        let transforming = !plan.chain.isEmpty
        guard let baseKey = plan.baseKey, let originalKey = plan.originalKey,
            let cache = transforming ? plan.originalCache : plan.cache
        else { return }
        let type = transforming ? plan.originalStoreCacheType : plan.storeCacheType
        if type.includesMemory, let image = payload.image {
            counters.countStore()
            if let imageCache = cache as? ImageCache {
                imageCache.storeInMemory(image, forKey: originalKey)
            } else {
                await countingFailure {
                    try await cache.store(image, data: nil, forKey: originalKey, cacheType: .memory)
                }
            }
        }
        guard type.includesDisk else { return }
        let extendedData = CacheValidators(response: download.response)?.extendedData
        if storesOriginalWithoutTask(plan), let imageCache = cache as? ImageCache {
            // The downloaded bytes go to the disk cache as they are, without a copy.
            counters.countStore()
            let background = background
            let counters = counters
            background.begin()
            imageCache.storeInBackground(bytes: download.data, extendedData: extendedData, forKey: baseKey) { error in
                if let error { counters.countStoreFailure(error) }
                background.end()
            }
            return
        }
        var bytes: Data? = Data(download.data)
        if let serializer = plan.serializer, let image = payload.image {
            bytes = serializer.cacheData(for: image, originalData: bytes, key: baseKey)
        }
        guard let bytes else { return }
        counters.countStore()
        await countingFailure { try await cache.storeData(bytes, extendedData: extendedData, forKey: baseKey) }
    }

    /// True when the flow stores the original itself, without a task, before completing: an
    /// untransformed image in an ``ImageCache`` (memory at once, the disk write queued) without
    /// a cache serializer (whose code stays off the request's way) and without
    /// ``ImageManagerOptions/waitStoreCache``.
    func storesOriginalWithoutTask(_ plan: ImageRequestPlan) -> Bool {
        plan.chain.isEmpty && plan.serializer == nil && plan.cache is ImageCache
            && !plan.options.contains(.waitStoreCache)
    }

    /// Stores a transformed image under the final key in the store cache type, encoded for
    /// disk with the context's encode options (or the serializer, or the cache's own encoding).
    func storeTransformed(_ plan: ImageRequestPlan, image: DecodedImage) async {
        guard let key = plan.finalKey, let cache = plan.cache else { return }
        let type = plan.storeCacheType
        if type.includesMemory {
            counters.countStore()
            if let imageCache = cache as? ImageCache {
                imageCache.storeInMemory(image, forKey: key)
            } else {
                await countingFailure { try await cache.store(image, data: nil, forKey: key, cacheType: .memory) }
            }
        }
        guard type.includesDisk else { return }
        var bytes: Data?
        if let serializer = plan.serializer {
            bytes = serializer.cacheData(for: image, originalData: nil, key: key)
            guard bytes != nil else { return }
        } else if let options = plan.encodeOptions {
            bytes = try? Data(plan.coders.encode(image.pixels, options: options))
        } else if let imageCache = cache as? ImageCache {
            bytes = try? imageCache.encode(image)
        }
        counters.countStore()
        if let bytes {
            if let imageCache = cache as? ImageCache {
                await countingFailure { try await imageCache.storeData(bytes, extendedData: nil, forKey: key) }
            } else {
                await countingFailure { try await cache.store(nil, data: bytes, forKey: key, cacheType: .disk) }
            }
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
