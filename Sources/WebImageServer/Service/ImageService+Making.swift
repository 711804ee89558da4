import FoundationEssentials
import WebImageCore

extension ImageService {
    /// Fetches (or finds on disk) the source of `processing`, decodes, transforms and encodes
    /// it, keeps the result under `key` and returns it.
    func make(_ processing: ProcessingRequest, plan: ImageProcessingPlan, target: OutputTarget, key: String)
        async throws -> ServedImage
    {
        var context = ImageContext()
        context.thumbnail = plan.thumbnail
        if !plan.transformers.isEmpty { context.transformer = TransformerPipeline(plan.transformers) }
        // The manager keeps originals on disk only (their memory tier is off): the server keeps
        // results encoded itself, so a transformed image is neither stored nor looked up; an
        // untransformed one (a thumbnail at most) is the original's entry, decoded at its size.
        let untransformed: ImageCacheType = plan.transformers.isEmpty ? .disk : .none
        context.storeCacheType = untransformed
        context.queryCacheType = untransformed
        context.originalStoreCacheType = .disk
        context.originalQueryCacheType = .disk
        let result: ImageResult
        do {
            result = try await manager.image(
                for: processing.source, options: [.retryFailed, .transformAnimatedImage, .revalidateStale],
                context: context)
        } catch {
            throw Self.failure(error)
        }
        if result.cacheType == .none {
            metrics.originFetches.increment()
            metrics.bytesIn.increment(by: Int64(result.metrics.load?.bytesReceived ?? 0))
        }
        if let revalidation = result.metrics.revalidation { metrics.countRevalidation(revalidation) }
        guard let image = result.image else { throw ServiceFailure(422, "the source decoded to no image") }
        let animationSource = result.frameCount > 1 ? result.animatedImageData : nil
        let format = try target.format(
            sourceFormat: image.format, isAnimated: animationSource != nil,
            hasAlpha: image.pixels.hasTranslucentPixels, coders: manager.coders)
        let bytes: [UInt8]
        do {
            bytes = try encode(
                image.pixels, animationSource: animationSource, format: format, plan: plan,
                limits: manager.configuration)
        } catch {
            throw ServiceFailure(422, "cannot encode the result as \(format.name): \(error)")
        }
        let served = ServedImage(
            bytes: bytes, contentType: format.mimeType, lastModified: Int64(Date().timeIntervalSince1970))
        do {
            try await results.store(served, forKey: key)
        } catch  where error.kind != .ioError && error.kind != .timedOut {
            // A server that does not answer is logged once per outage by its plugin and counted in the metrics.
            logger.warning("cannot keep a result: \(error)")
        } catch {}
        return served
    }

    /// `pixels` encoded as `format`; an animated source in a format that holds animations
    /// keeps every frame, each decoded again at the plan's thumbnail size and transformed.
    private func encode(
        _ pixels: PixelBuffer, animationSource: Data?, format: ImageFormat, plan: ImageProcessingPlan,
        limits: ImageManagerConfiguration
    ) throws -> [UInt8] {
        var options = EncodeOptions(format: format.name, quality: plan.quality ?? Self.defaultQuality)
        if let background = plan.backgroundColor { options.backgroundColor = background }
        var frameDecodeOptions = limits.decodeOptions
        frameDecodeOptions.thumbnail = plan.thumbnail
        let transformer = plan.transformers.isEmpty ? nil : TransformerPipeline(plan.transformers)
        let transformLimits = limits.transformLimits
        return try manager.coders.encode(
            pixels, keepingAnimationOf: animationSource, frameDecodeOptions: frameDecodeOptions, options: options
        ) { frame in try transformer?.transform(frame, limits: transformLimits) ?? frame }.bytes
    }

    /// The quality of a result without `q`: 0.8, imgproxy's default.
    static let defaultQuality = 0.8

    /// What a failed manager request answers.
    static func failure(_ error: ImageManagerError) -> ServiceFailure {
        switch error.kind {
        case .loadFailed:
            guard let loading = error.loadingError else { return ServiceFailure(502, error.reason) }
            switch loading.kind {
            case .destinationRefused: return ServiceFailure(403, "source refused: \(loading.message)")
            case .badStatus where [404, 410].contains(loading.statusCode ?? 0):
                return ServiceFailure(404, "source not found: \(loading.message)")
            case .timedOut: return ServiceFailure(504, "source timed out: \(loading.message)")
            case .tooLarge: return ServiceFailure(422, "source too large: \(loading.message)")
            default: return ServiceFailure(502, "cannot fetch the source: \(loading.message)")
            }
        case .decodeFailed, .transformFailed: return ServiceFailure(422, error.reason)
        case .timedOut: return ServiceFailure(504, error.reason)
        case .invalidURL, .unsupportedURL, .invalidOption: return ServiceFailure(400, error.reason)
        case .blockedURL, .notInCache: return ServiceFailure(404, error.reason)
        case .cancelled: return ServiceFailure(503, "the server is shutting down", headers: [("Retry-After", "1")])
        }
    }

    /// The manager's settings for a server: originals on disk (or, with `redis-originals`, in
    /// Redis) in the namespace `originals`, fresh for ``ImageServerConfiguration/sourceMaxAge``
    /// unless their origin says otherwise, no decoded images in memory, the source guard and
    /// limits of `configuration`.
    static func managerConfiguration(_ configuration: ImageServerConfiguration) -> ImageManagerConfiguration {
        var manager = ImageManagerConfiguration()
        manager.cache.directory = configuration.cacheDirectory
        manager.cache.namespace = "originals"
        if configuration.redisOriginals, let redisURL = configuration.redisURL {
            useRedis(redisURL, configuration, in: &manager.cache)
        }
        manager.cache.cachesImagesInMemory = false
        manager.downloader.destinationPolicy.denyPrivateAddresses = !configuration.allowPrivateSources
        manager.downloader.destinationPolicy.allowedURLPrefixes = configuration.allowedSources
        manager.downloader.destinationPolicy.deniedAddresses =
            (try? ListenAddress(configuration.listen))?.ownNetworks ?? []
        manager.downloader.maxResponseSize = configuration.maxSourceBytes
        manager.downloader.maxTransferTime = .milliseconds(Int64(configuration.sourceTimeout * 1000))
        manager.decodeOptions = configuration.decodeOptions
        manager.maxConcurrentDecodes = configuration.maxConcurrent
        manager.defaultFreshnessLifetime = .milliseconds(Int64(configuration.sourceMaxAge * 1000))
        return manager
    }

    /// The result tiers: the `memory` plugin with ``ImageServerConfiguration/resultMemoryBytes``,
    /// and the `disk` plugin in the namespace `results` or, with a Redis URL, the `redis` plugin;
    /// `tierFailed` is told of each failed read or write of the latter (``ResultCache/tierFailed``).
    static func makeResultCache(
        _ configuration: ImageServerConfiguration, host: PluginHost,
        tierFailed: @escaping @Sendable (CacheError) -> Void
    ) throws -> ResultCache {
        var memoryOptions = CacheConfiguration()
        memoryOptions["max-cost"] = String(configuration.resultMemoryBytes)
        let memory = try host.adapter(PluginMemoryCacheBackend.self, named: "memory").make(memoryOptions)
        var cache = ImageCacheConfiguration()
        cache.namespace = "results"
        cache.directory = configuration.cacheDirectory
        if let redisURL = configuration.redisURL { useRedis(redisURL, configuration, in: &cache) }
        let disk = try host.adapter(PluginDiskCacheBackend.self, named: cache.diskPlugin).open(cache.diskOptions)
        return ResultCache(memory: memory, disk: disk, tierFailed: tierFailed)
    }

    /// Makes `cache`'s disk tier the `redis` plugin at `url`, with the configured timeout.
    static func useRedis(
        _ url: String, _ configuration: ImageServerConfiguration, in cache: inout ImageCacheConfiguration
    ) {
        cache.diskPlugin = "redis"
        cache.extraDiskOptions["url"] = url
        cache.extraDiskOptions["timeout-ms"] = String(max(1, Int((configuration.redisTimeout * 1000).rounded())))
    }

    /// The signer of the configured key pairs; nil with `allow-unsigned` and no key.
    static func makeSigner(_ configuration: ImageServerConfiguration) throws(ImageServerConfigurationError)
        -> ImageURLSigner?
    {
        if configuration.keys.isEmpty && configuration.salts.isEmpty {
            guard configuration.allowUnsigned else {
                throw ImageServerConfigurationError(
                    "no signing key: give --key HEX --salt HEX (or WEBIMAGE_SERVE_KEY and WEBIMAGE_SERVE_SALT), "
                        + "or --allow-unsigned to accept unsigned URLs")
            }
            return nil
        }
        guard configuration.keys.count == configuration.salts.count else {
            throw ImageServerConfigurationError(
                "\(configuration.keys.count) keys but \(configuration.salts.count) salts: give one --salt for each --key"
            )
        }
        if configuration.allowUnsigned {
            throw ImageServerConfigurationError("--allow-unsigned cannot be used with a signing key")
        }
        do throws(ImageURLSignerError) {
            return try ImageURLSigner(
                pairs: zip(configuration.keys, configuration.salts).map { pair throws(ImageURLSignerError) in
                    try ImageURLSigner.KeyPair(keyHex: pair.0, saltHex: pair.1)
                })
        } catch {
            throw ImageServerConfigurationError("bad signing key: \(error.message)")
        }
    }
}

extension Duration {
    /// The duration in milliseconds with one decimal, rounded half up: `12.3`.
    var millisecondsText: String {
        let (seconds, attoseconds) = components
        let tenths = seconds * 10_000 + (attoseconds + 50_000_000_000_000) / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}
