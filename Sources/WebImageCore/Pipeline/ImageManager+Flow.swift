import FoundationEssentials

/// The flow of one (shared) request: query the caches, decide whether to download, download,
/// decode, transform, store, complete (issue 13's steps 1-8).
///
/// A request in flight holds the async frames of the flow and of the step it waits in, and
/// the compiler gives every value in a frame a slot of its own for the frame's whole life. So
/// the steps the flow awaits (here and in the cache and stage files) are `@inline(never)`: an
/// inlined step's values would stay in the flow's frame while it waits for its download.
/// docs/performance.md (the image manager, run 13) has the sizes.
extension ImageManager {
    /// Starts the shared run of `plan` for `work`; it ends with `.finished`. A plain request
    /// runs without a task (``runsWithoutTask(_:)``), any other in a task of its own.
    func start(_ plan: ImageRequestPlan, work: SharedWork<ImageResult>) {
        if runsWithoutTask(plan) {
            startWithoutTask(plan, work: work)
        } else {
            startTask(plan, work: work)
        }
    }

    /// Starts the shared run of `plan` for `work` in a task of its own.
    func startTask(_ plan: ImageRequestPlan, work: SharedWork<ImageResult>) {
        let relay = PriorityRelay(priority: work.priority)
        background.begin()
        let task = Task {
            let started = ContinuousClock.now
            let result: Result<ImageResult?, ImageManagerError>
            do throws(ImageManagerError) {
                result = .success(try await flow(plan, work: work, relay: relay, started: started))
            } catch {
                result = .failure(error)
            }
            work.send(.finished(result))
            background.end()
        }
        work.setHandlers(cancel: { task.cancel() }, priority: { relay.set($0) })
    }

    private func flow(
        _ plan: ImageRequestPlan, work: SharedWork<ImageResult>, relay: PriorityRelay, started: ContinuousClock.Instant
    ) async throws(ImageManagerError) -> ImageResult? {
        let forward: @Sendable (WorkEvent<DecodedPayload>) -> Void = { event in
            switch event {
            case .progress(let progress): work.send(.progress(progress))
            case .partial(let image): work.send(.partial(image))
            default: break
            }
        }
        // 1. The caches, unless from-loader-only.
        let deliveredCached: Bool
        let stale: StaleOriginal?
        switch try await queryCaches(plan, work: work, relay: relay, started: started, forward: forward) {
        case .answered(let result): return result
        case .load(let delivered, let found): (deliveredCached, stale) = (delivered, found)
        }
        // 2. Whether to download.
        if plan.options.contains(.fromCacheOnly) {
            if deliveredCached { return nil }
            if let stale {
                return try await resultOfCachedOriginal(
                    plan, hit: stale.hit, cache: stale.cache, started: started, relay: relay, forward: forward)
            }
            throw ImageManagerError(.notInCache, "not in the cache", url: plan.urlString)
        }
        if let refusal = refusalToDownload(plan) { throw refusal }
        // 3. A refresh revalidates with the validators stored with the cached bytes.
        var validators: CacheValidators?
        if deliveredCached, let baseKey = plan.baseKey,
            let cache = plan.chain.isEmpty ? plan.cache : plan.originalCache,
            let extended = try? await cache.extendedData(forKey: baseKey)
        {
            validators = CacheValidators(extendedData: extended)
        } else if let stale {
            // A stale copy (revalidate-stale) is revalidated with its own.
            validators = stale.hit.record
        }
        // 4-7. Download, decode, transform (shared stages).
        let output: DecodedPayload?
        do {
            if plan.chain.isEmpty {
                output = try await decoded(plan, validators: validators, relay: relay, forward: forward)
            } else {
                output = try await transformed(
                    plan, count: plan.chain.count, source: .download(validators), relay: relay, forward: forward)
            }
        } catch  where error.loadingError?.kind == .notModified {
            guard let stale else { return nil }
            // The stale copy is current: renew its freshness and use it.
            await renew(plan, stale.hit, in: stale.cache, headers: error.loadingError?.headers)
            var result = try await resultOfCachedOriginal(
                plan, hit: stale.hit, cache: stale.cache, started: started, relay: relay, forward: forward)
            result?.metrics.revalidation = .notModified
            return result
        } catch {
            if FailedURLList.blocks(error) { failedURLs.insert(plan.urlString) }
            throw error
        }
        failedURLs.remove(plan.urlString)
        guard let output, let download = output.download else { return nil }
        // 6-7. Stores: the original, then the transformed image.
        let image = output.image
        let transformedImage = output.transformed
        let original = DecodedPayload(
            image: output.original ?? image, animation: nil, frameCount: output.frameCount)
        if storesOriginalWithoutTask(plan) {
            await storeOriginal(plan, payload: original, download: download)
        } else {
            await store(plan) {
                await self.storeOriginal(plan, payload: original, download: download)
                if transformedImage, let image { await self.storeTransformed(plan, image: image) }
            }
        }
        // 8. Complete.
        var result = resultOfDownload(plan, output: output, download: download, started: started)
        if stale != nil { result.metrics.revalidation = .modified }
        return result
    }

    /// Why `plan` may not download: its URL failed before (the failed-URL list) and
    /// ``ImageManagerOptions/retryFailed`` is not set, or no loader serves its scheme; nil
    /// when it may.
    func refusalToDownload(_ plan: ImageRequestPlan) -> ImageManagerError? {
        if failedURLs.contains(plan.urlString), !plan.options.contains(.retryFailed) {
            return ImageManagerError(
                .blockedURL, "failed before; use retry-failed to try it again", url: plan.urlString)
        }
        guard plan.downloader.loaders.contains(where: { $0.serves(plan.urlString) }) else {
            return ImageManagerError(.unsupportedURL, "no loader serves its scheme", url: plan.urlString)
        }
        return nil
    }

    /// The result of a downloaded image `output`; thumbnails and transformed images carry no data.
    func resultOfDownload(
        _ plan: ImageRequestPlan, output: DecodedPayload, download: DownloadedData, started: ContinuousClock.Instant
    ) -> ImageResult {
        var metrics = ImageMetrics()
        metrics.total = ContinuousClock.now - started
        metrics.load = download.metrics
        let plain = plan.decode.thumbnail == nil && !output.transformed
        let bytes = plain || output.isAnimated ? Data(download.data) : nil
        return ImageResult(
            image: output.image, animation: output.animation, data: plain ? bytes : nil, cacheType: .none,
            url: plan.url, cacheKey: output.transformed ? plan.finalKey : plan.originalKey, scale: plan.scale,
            frameCount: output.frameCount, metrics: metrics, animatedImageData: output.isAnimated ? bytes : nil)
    }

    /// A cached original past its freshness (``ImageManagerOptions/revalidateStale``) and the
    /// cache it was found in, used only after the origin answers 304.
    typealias StaleOriginal = (hit: CacheHit, cache: any ImageCaching)

    /// What the cache lookups of a request came to.
    private enum CacheOutcome {
        /// The request is answered from the caches (nil: it ends without a value).
        case answered(ImageResult?)
        /// The loader is next. `delivered`: a cached result went to the subscribers as an
        /// intermediate value (``ImageManagerOptions/refreshCached``); `stale`: a stale original.
        case load(delivered: Bool, stale: StaleOriginal?)
    }

    /// Step 1: the transformed image in the cache, else the original in the original cache
    /// (transformed now), unless the plan loads from the loader only.
    @inline(never)
    private func queryCaches(
        _ plan: ImageRequestPlan, work: SharedWork<ImageResult>, relay: PriorityRelay, started: ContinuousClock.Instant,
        forward: @escaping @Sendable (WorkEvent<DecodedPayload>) -> Void
    ) async throws(ImageManagerError) -> CacheOutcome {
        guard !plan.options.contains(.fromLoaderOnly), let baseKey = plan.baseKey, let originalKey = plan.originalKey,
            let finalKey = plan.finalKey
        else { return .load(delivered: false, stale: nil) }
        let refresh = plan.options.contains(.refreshCached)
        var deliveredCached = false
        var stale: StaleOriginal?
        let transforming = !plan.chain.isEmpty
        if let cache = plan.cache, plan.queryCacheType != .none,
            let hit = try await lookup(
                plan, in: cache, lookupKey: transforming ? finalKey : baseKey, memoryKey: finalKey,
                spec: transforming ? ImageRequestPlan.DecodeSpec() : plan.decode, type: plan.queryCacheType,
                relay: relay)
        {
            if !transforming && isStale(plan, hit) {
                stale = (hit, cache)
            } else {
                let result = cachedResult(
                    plan, hit: hit, key: finalKey, started: started, isOriginal: !transforming)
                guard refresh else { return .answered(result) }
                work.send(.intermediate(result))
                deliveredCached = true
            }
        }
        if !deliveredCached, stale == nil, transforming, let cache = plan.originalCache,
            plan.originalQueryCacheType != .none,
            let hit = try await lookup(
                plan, in: cache, lookupKey: baseKey, memoryKey: originalKey, spec: plan.decode,
                type: plan.originalQueryCacheType, relay: relay)
        {
            if isStale(plan, hit) {
                stale = (hit, cache)
            } else {
                // The transformed image is missing but the original is cached: transform it.
                guard
                    let result = try await resultOfCachedOriginal(
                        plan, hit: hit, cache: cache, started: started, relay: relay, forward: forward)
                else { return .answered(nil) }
                guard refresh else { return .answered(result) }
                work.send(.intermediate(result))
                deliveredCached = true
            }
        }
        return .load(delivered: deliveredCached, stale: stale)
    }

    /// Runs the stores now (``ImageManagerOptions/waitStoreCache``) or in the background.
    @inline(never)
    func store(_ plan: ImageRequestPlan, _ body: @escaping @Sendable () async -> Void) async {
        if plan.options.contains(.waitStoreCache) {
            await body()
        } else {
            background.run(body)
        }
    }

    /// The result of the cached original `hit` found in `cache`: itself without a transformer,
    /// else transformed (and the transformed image stored under the final key).
    @inline(never)
    private func resultOfCachedOriginal(
        _ plan: ImageRequestPlan, hit: CacheHit, cache: any ImageCaching, started: ContinuousClock.Instant,
        relay: PriorityRelay, forward: @escaping @Sendable (WorkEvent<DecodedPayload>) -> Void
    ) async throws(ImageManagerError) -> ImageResult? {
        guard let originalKey = plan.originalKey, let finalKey = plan.finalKey else { return nil }
        guard !plan.chain.isEmpty else {
            return cachedResult(plan, hit: hit, key: finalKey, started: started, isOriginal: true)
        }
        let sourceKey = plan.cachedDecodeKey(cache: cache, key: originalKey, spec: plan.decode)
        let output = try await transformed(
            plan, count: plan.chain.count, source: .cached(hit.payload, key: sourceKey), relay: relay, forward: forward)
        guard let output else { return nil }
        if output.transformed, let image = output.image {
            await store(plan) { await self.storeTransformed(plan, image: image) }
        }
        var result = cachedResult(
            plan, hit: hit, key: output.transformed ? finalKey : originalKey, started: started, isOriginal: true)
        result.image = output.image
        result.animation = output.animation
        result.data = output.transformed ? nil : result.data
        return result
    }

    /// The result of a cache hit; `isOriginal` when it was looked up under the base key (its
    /// data, if any, are the original's: an animation's frames can be decoded from them).
    func cachedResult(
        _ plan: ImageRequestPlan, hit: CacheHit, key: String, started: ContinuousClock.Instant, isOriginal: Bool
    ) -> ImageResult {
        var metrics = ImageMetrics()
        metrics.total = ContinuousClock.now - started
        let plain = plan.decode.thumbnail == nil && plan.chain.isEmpty
        return ImageResult(
            image: hit.payload.image, animation: hit.payload.animation, data: plain ? hit.data : nil,
            cacheType: hit.cacheType, url: plan.url, cacheKey: key, scale: plan.scale,
            frameCount: hit.payload.frameCount, metrics: metrics,
            animatedImageData: isOriginal && hit.payload.isAnimated ? hit.data : nil)
    }
}
