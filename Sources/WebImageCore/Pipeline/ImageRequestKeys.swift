import Synchronization

/// The coalescing keys of a request's shared work, one `Hashable` struct per stage (Nuke's
/// `ImageRequestKeys`), all built here from the request's ``ImageRequestPlan``: two requests
/// share a stage's work exactly when their keys for it are equal. Each key holds the key of
/// the work it consumes (a decode's holds its download's), so what splits a stage splits every
/// stage after it. `ImageRequestKeysTests` holds the decision for every option and context
/// field and fails for one without a decision.
enum ImageRequestKeys {
    /// One download per (URL, transfer options, downloader, validators).
    struct Download: Hashable, Sendable {
        var url: String
        var loadOptions: LoadRequest.Options
        var downloader: InstanceIdentity
        /// True when the downloader was made for this request's modifiers.
        var isPrivate: Bool
        /// The validators of a conditional download (a refresh or a revalidation); nil: unconditional.
        var validators: DownloadRequest.Validators?
    }

    /// One decode per (input, decode settings, progressive or not).
    struct Decode: Hashable, Sendable {
        /// Where the bytes (or the decoded image) come from.
        enum Input: Hashable, Sendable {
            case download(Download)
            /// Found in the cache `cache` under `key`.
            case cached(cache: InstanceIdentity, key: String)
        }

        var input: Input
        var spec: ImageRequestPlan.DecodeSpec
        /// Partial images are decoded while the bytes arrive.
        var progressive: Bool
    }

    /// One transform per (decoded input, chain prefix).
    struct Transform: Hashable, Sendable {
        var input: Decode
        var transformsAnimatedImages: Bool
        /// The transformer keys of the chain's prefix, in order.
        var transformers: [String]
    }

    /// One run of a request's whole flow (query, download, decode, transform, store) per key.
    struct Image: Hashable, Sendable {
        /// The whole chain over the unconditional download.
        var transform: Transform
        /// The options that change the flow itself (``flowOptions``).
        var options: ImageManagerOptions
        var scale: Double
        var cacheKey: String?
        var cache: InstanceIdentity?
        var originalCache: InstanceIdentity?
        var storeCacheType: ImageCacheType
        var originalStoreCacheType: ImageCacheType
        var queryCacheType: ImageCacheType
        var originalQueryCacheType: ImageCacheType
        var serializer: InstanceIdentity?
        var encoding: Encoding?
    }

    /// Every field of an ``EncodeOptions`` (which is not `Hashable`: its maximum size is a tuple).
    struct Encoding: Hashable, Sendable {
        var format: String
        var quality: Double
        var maxPixelWidth: Int?
        var maxPixelHeight: Int?
        var backgroundColor: UInt32
        var lossless: Bool
        var loopCount: Int

        init(_ options: EncodeOptions) {
            format = options.format
            quality = options.quality
            maxPixelWidth = options.maxPixelSize?.width
            maxPixelHeight = options.maxPixelSize?.height
            backgroundColor = options.backgroundColor
            lossless = options.lossless
            loopCount = options.loopCount
        }
    }

    /// The options that split the flow's key, beside those the stage keys hold (the transfer
    /// options, the decode options, progressive-load, transform-animated-image). Priorities
    /// and the `query…Sync` options do not: they change how a request waits, not what it gets.
    static let flowOptions: ImageManagerOptions = [
        .retryFailed, .refreshCached, .queryMemoryData, .fromCacheOnly, .fromLoaderOnly, .waitStoreCache,
        .revalidateStale,
    ]
}

extension ImageRequestPlan {
    /// The download's key; `validators` make it conditional.
    func downloadKey(validators: CacheValidators?) -> ImageRequestKeys.Download {
        ImageRequestKeys.Download(
            url: urlString, loadOptions: loadOptions, downloader: InstanceIdentity(downloader),
            isPrivate: privateDownloader, validators: validators?.downloadValidators)
    }

    /// The key of the download's decode.
    func decodeKey(validators: CacheValidators?) -> ImageRequestKeys.Decode {
        ImageRequestKeys.Decode(
            input: .download(downloadKey(validators: validators)), spec: decode,
            progressive: options.contains(.progressiveLoad))
    }

    /// The key of the decode of what `cache` holds under `key`, as `spec` says.
    func cachedDecodeKey(
        cache: any ImageCaching, key: String, spec: DecodeSpec
    ) -> ImageRequestKeys.Decode {
        ImageRequestKeys.Decode(
            input: .cached(cache: InstanceIdentity(cache), key: key), spec: spec, progressive: false)
    }

    /// The key of the first `count` transformers of the chain over the decode `input`.
    func transformKey(_ count: Int, input: ImageRequestKeys.Decode) -> ImageRequestKeys.Transform {
        ImageRequestKeys.Transform(
            input: input, transformsAnimatedImages: options.contains(.transformAnimatedImage),
            transformers: chain.prefix(count).map(\.transformerKey))
    }

    /// The key of the whole flow: identical requests share one run of it.
    var imageKey: ImageRequestKeys.Image {
        ImageRequestKeys.Image(
            transform: transformKey(chain.count, input: decodeKey(validators: nil)),
            options: options.intersection(ImageRequestKeys.flowOptions), scale: scale, cacheKey: baseKey,
            cache: cacheIdentity, originalCache: originalCacheIdentity,
            storeCacheType: storeCacheType, originalStoreCacheType: originalStoreCacheType,
            queryCacheType: queryCacheType, originalQueryCacheType: originalQueryCacheType,
            serializer: serializer.map(InstanceIdentity.init),
            encoding: encodeOptions.map(ImageRequestKeys.Encoding.init))
    }
}

/// The instance a key names: an object by its identity; a value, which has none, by a number
/// of its own, so that it matches no other request's.
enum InstanceIdentity: Hashable, Sendable {
    case object(ObjectIdentifier)
    case value(Int)

    /// An object's identity, without bridging it through `Any` first (which costs more than
    /// the rest of a request's keys).
    init(_ object: AnyObject) {
        self = .object(ObjectIdentifier(object))
    }

    init(_ value: Any) {
        guard type(of: value) is AnyClass else {
            self = .value(valueIdentities.add(1, ordering: .relaxed).newValue)
            return
        }
        self.init(value as AnyObject)
    }
}

/// A value compared by its ``InstanceIdentity`` (taken once, when wrapped), so that a key can
/// hold it.
struct Identified<Value: Sendable>: Hashable, Sendable {
    let value: Value
    let identity: InstanceIdentity

    init(_ value: Value) {
        self.value = value
        identity = InstanceIdentity(value)
    }

    static func == (left: Self, right: Self) -> Bool { left.identity == right.identity }

    func hash(into hasher: inout Hasher) { hasher.combine(identity) }
}

private let valueIdentities = Atomic<Int>(0)
