import FoundationEssentials

/// One request with the manager's defaults, the options processor and the context resolved:
/// its caches, loader, decode settings, transformer chain and cache keys (its coalescing keys
/// are built from it in ``ImageRequestKeys``). A class: the stages' closures capture it with one
/// reference count instead of copying its twenty-odd fields (and retaining each).
final class ImageRequestPlan: Sendable {
    /// How the decode stage decodes: what makes two decodes of the same bytes different (all
    /// of it is in the decode key, ``ImageRequestKeys/Decode``).
    struct DecodeSpec: Hashable, Sendable {
        var thumbnail: ThumbnailSize?
        var scaleDownPixelLimit: Int?
        var firstFrameOnly = false
        var preloadAllFrames = false
        var avoidDecode = false
        var coder: Identified<any ImageCoder>?
    }

    let url: URL
    let urlString: String
    let options: ImageManagerOptions
    let priority: ImagePriority
    let cache: (any ImageCaching)?
    let originalCache: (any ImageCaching)?
    /// The identities of `cache` and `originalCache` in the keys, the manager's own taken once
    /// (``ImageManager/cacheIdentity``): taking a protocol value's identity bridges it through
    /// `AnyObject`, which costs more than the rest of a key.
    let cacheIdentity: InstanceIdentity?
    let originalCacheIdentity: InstanceIdentity?
    let downloader: ImageDownloader
    /// True when the downloader was made for this request's modifiers (its download is not shared).
    let privateDownloader: Bool
    let coders: CodersManager
    let decode: DecodeSpec
    /// The transformer chain, each step a transformer.
    let chain: [any ImageTransformer]
    let scale: Double
    /// The cache key filter's key (the URL's absolute string by default); nil: nothing is cached.
    let baseKey: String?
    /// The key of the decoded original: the thumbnail key when decoding to a thumbnail, then
    /// the first-frame key (``CacheKeys/firstFrameKey(_:)``) when decoding the first frame only.
    let originalKey: String?
    /// The key of the final image: the transformed key when a transformer runs.
    let finalKey: String?
    let storeCacheType: ImageCacheType
    let originalStoreCacheType: ImageCacheType
    let queryCacheType: ImageCacheType
    let originalQueryCacheType: ImageCacheType
    let serializer: (any CacheSerializer)?
    let encodeOptions: EncodeOptions?
    let timeout: Duration?

    init(url: URL, options: ImageManagerOptions, context: ImageContext, manager: ImageManager) {
        self.url = url
        urlString = url.absoluteString
        self.options = options
        priority = options.priority
        cache = context.imageCache ?? manager.cache
        originalCache = context.originalImageCache ?? cache
        cacheIdentity = context.imageCache.map(InstanceIdentity.init) ?? manager.cacheIdentity
        originalCacheIdentity = context.originalImageCache.map(InstanceIdentity.init) ?? cacheIdentity
        let base = context.loader ?? manager.downloader
        if context.requestModifier != nil || context.responseModifier != nil || context.decryptor != nil {
            var configuration = base.configuration
            if let modifier = context.requestModifier { configuration.requestModifier = modifier }
            if let modifier = context.responseModifier { configuration.responseModifier = modifier }
            if let decryptor = context.decryptor { configuration.decryptor = decryptor }
            downloader = ImageDownloader(loaders: base.loaders, configuration: configuration)
            privateDownloader = true
        } else {
            downloader = base
            privateDownloader = false
        }
        coders = manager.coders
        var decode = DecodeSpec()
        decode.thumbnail = context.thumbnail
        decode.scaleDownPixelLimit =
            context.scaleDownPixelLimit
            ?? (options.contains(.scaleDownLargeImages) ? ImageContext.defaultScaleDownPixelLimit : nil)
        decode.firstFrameOnly = context.firstFrameOnly ?? options.contains(.decodeFirstFrameOnly)
        decode.preloadAllFrames = options.contains(.preloadAllFrames) && !decode.firstFrameOnly
        decode.avoidDecode = options.contains(.avoidDecodeImage)
        decode.coder = context.coder.map(Identified.init)
        self.decode = decode
        let transformer = context.transformer ?? manager.defaultTransformer
        if let pipeline = transformer as? TransformerPipeline {
            chain = pipeline.transformers
        } else {
            chain = transformer.map { [$0] } ?? []
        }
        scale = context.scaleFactor ?? 1
        let filter = context.cacheKeyFilter ?? manager.cacheKeyFilter
        baseKey = filter.map { $0.cacheKey(for: url) } ?? urlString
        // A first frame has a key of its own: a later animated request must not get it from memory.
        originalKey = baseKey.map { key in
            let decoded = context.thumbnail.map { CacheKeys.thumbnailKey(key, size: $0) } ?? key
            return decode.firstFrameOnly ? CacheKeys.firstFrameKey(decoded) : decoded
        }
        let chainKey = chain.isEmpty ? "" : chain.map(\.transformerKey).joined(separator: "-")
        finalKey = originalKey.map { chainKey.isEmpty ? $0 : CacheKeys.transformedKey($0, transformerKey: chainKey) }
        storeCacheType = context.storeCacheType ?? .all
        originalStoreCacheType = context.originalStoreCacheType ?? .disk
        queryCacheType = context.queryCacheType ?? .all
        originalQueryCacheType = context.originalQueryCacheType ?? .all
        serializer = context.cacheSerializer ?? manager.cacheSerializer
        encodeOptions = context.encodeOptions
        timeout = context.timeout
    }

    /// The transfer options the manager's options ask for.
    var loadOptions: LoadRequest.Options {
        var options: LoadRequest.Options = [.allowHTTP2]
        if self.options.contains(.handleCookies) { options.insert(.sendCookies) }
        if self.options.contains(.allowInvalidSSL) { options.insert(.allowInvalidCertificates) }
        return options
    }
}
