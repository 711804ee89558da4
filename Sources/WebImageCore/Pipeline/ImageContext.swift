import FoundationEssentials

/// Per-request settings that override the manager's (SDWebImage's `SDWebImageContext`). Every
/// entry defaults to nil: the manager's own value, or the default stated.
public struct ImageContext: Sendable {
    /// The scale-down limit of ``ImageManagerOptions/scaleDownLargeImages`` when
    /// ``scaleDownPixelLimit`` is nil: 16 megapixels (64 MB of RGBA8 pixels).
    public static let defaultScaleDownPixelLimit = 16_000_000

    /// The cache queried and stored to; default the manager's.
    public var imageCache: (any ImageCaching)?
    /// The cache the original (untransformed) image is queried in and stored to; default ``imageCache``.
    public var originalImageCache: (any ImageCaching)?
    /// The loader; default the manager's.
    public var loader: ImageDownloader?
    /// Decodes with this coder instead of choosing one by the bytes; default the manager's coders.
    public var coder: (any ImageCoder)?
    /// Transforms decoded images (a ``TransformerPipeline`` is a chain whose prefixes are shared);
    /// default the manager's default transformer.
    public var transformer: (any ImageTransformer)?
    /// Decode to a thumbnail that fits this box (aspect ratio as the size says); the result is
    /// cached under the thumbnail key and carries no data.
    public var thumbnail: ThumbnailSize?
    /// The image's scale factor (points to pixels, SDWebImage's `imageScaleFactor`); default 1.
    public var scaleFactor: Double?
    /// Decode images with more pixels than this scaled down to it (also without
    /// ``ImageManagerOptions/scaleDownLargeImages``).
    public var scaleDownPixelLimit: Int?
    /// Decode only the first frame (as ``ImageManagerOptions/decodeFirstFrameOnly``).
    public var firstFrameOnly: Bool?
    /// How transformed (and thumbnail) images are encoded for the disk cache; default the
    /// image's own format when a coder encodes it, else PNG or JPEG (``ImageCache/encode(_:)``).
    public var encodeOptions: EncodeOptions?
    /// Where the final image is stored; default `.all`.
    public var storeCacheType: ImageCacheType?
    /// Where the original is stored when a transformer runs; default `.disk`.
    public var originalStoreCacheType: ImageCacheType?
    /// Where the final image is looked up; default `.all`.
    public var queryCacheType: ImageCacheType?
    /// Where the original is looked up when the transformed image is missing; default `.all`.
    public var originalQueryCacheType: ImageCacheType?
    /// Turns the URL into the cache key; default the manager's, else the URL's absolute string.
    public var cacheKeyFilter: (any CacheKeyFilter)?
    /// Turns images into the bytes stored on disk; default the manager's.
    public var cacheSerializer: (any CacheSerializer)?
    /// Changes the request before it is sent (nil fails the download); the download is not
    /// shared with requests without it.
    public var requestModifier: (@Sendable (LoadRequest) -> LoadRequest?)?
    /// Changes the response head before it is checked (nil fails the download); not shared.
    public var responseModifier: (@Sendable (LoadResponse) -> LoadResponse?)?
    /// Turns the body into image bytes (nil fails with `decryptionFailed`); not shared.
    public var decryptor: (@Sendable ([UInt8], LoadResponse) -> [UInt8]?)?
    /// This request's own time limit from start to completion, whatever the shared work it
    /// waits for does; default none.
    public var timeout: Duration?

    public init() {}

    /// `self` with the entries `other` sets replacing these.
    func overridden(by other: ImageContext) -> ImageContext {
        var merged = self
        merged.imageCache = other.imageCache ?? imageCache
        merged.originalImageCache = other.originalImageCache ?? originalImageCache
        merged.loader = other.loader ?? loader
        merged.coder = other.coder ?? coder
        merged.transformer = other.transformer ?? transformer
        merged.thumbnail = other.thumbnail ?? thumbnail
        merged.scaleFactor = other.scaleFactor ?? scaleFactor
        merged.scaleDownPixelLimit = other.scaleDownPixelLimit ?? scaleDownPixelLimit
        merged.firstFrameOnly = other.firstFrameOnly ?? firstFrameOnly
        merged.encodeOptions = other.encodeOptions ?? encodeOptions
        merged.storeCacheType = other.storeCacheType ?? storeCacheType
        merged.originalStoreCacheType = other.originalStoreCacheType ?? originalStoreCacheType
        merged.queryCacheType = other.queryCacheType ?? queryCacheType
        merged.originalQueryCacheType = other.originalQueryCacheType ?? originalQueryCacheType
        merged.cacheKeyFilter = other.cacheKeyFilter ?? cacheKeyFilter
        merged.cacheSerializer = other.cacheSerializer ?? cacheSerializer
        merged.requestModifier = other.requestModifier ?? requestModifier
        merged.responseModifier = other.responseModifier ?? responseModifier
        merged.decryptor = other.decryptor ?? decryptor
        merged.timeout = other.timeout ?? timeout
        return merged
    }
}

/// Rewrites the options and context of each request before it runs (SDWebImage's
/// `SDWebImageOptionsProcessor`), for example to add a thumbnail size for one host.
public protocol ImageOptionsProcessor: Sendable {
    /// The options and context to use for `url`.
    func process(url: URL, options: ImageManagerOptions, context: ImageContext) -> (ImageManagerOptions, ImageContext)
}
