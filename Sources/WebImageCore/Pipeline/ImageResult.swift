import FoundationEssentials

/// What a finished request delivers.
///
/// Its fields are kept out of line (``OutOfLine``), so the value is one reference wide: a
/// request's async frames hold several results, errors and cache hits at once (the compiler
/// does not overlap their slots), and at 296 bytes a result was much of the 34 KB a request in
/// flight held.
public struct ImageResult: Sendable {
    /// The decoded image; nil only with ``ImageManagerOptions/avoidDecodeImage``.
    public var image: DecodedImage? {
        get { fields.value.image }
        set { fields.value.image = newValue }
    }
    /// Every frame, with ``ImageManagerOptions/preloadAllFrames`` and an animated image.
    public var animation: DecodedAnimation? {
        get { fields.value.animation }
        set { fields.value.animation = newValue }
    }
    /// The encoded bytes the image came from: downloaded or read from disk; nil for memory
    /// hits (unless ``ImageManagerOptions/queryMemoryData``), thumbnails and transformed images.
    public var data: Data? {
        get { fields.value.data }
        set { fields.value.data = newValue }
    }
    /// Where it came from: `.none` (downloaded by the loader, SDWebImage's name; the CLI's
    /// "from the network"), `.memory` or `.disk`.
    public var cacheType: ImageCacheType {
        get { fields.value.cacheType }
        set { fields.value.cacheType = newValue }
    }
    public var url: URL {
        get { fields.value.url }
        set { fields.value.url = newValue }
    }
    /// The cache key of the result (thumbnail and transformer keys included); nil when the
    /// cache key filter gave none.
    public var cacheKey: String? {
        get { fields.value.cacheKey }
        set { fields.value.cacheKey = newValue }
    }
    /// The scale factor (``ImageContext/scaleFactor``, default 1).
    public var scale: Double {
        get { fields.value.scale }
        set { fields.value.scale = newValue }
    }
    /// Frames in the source (1 for a still image or with first-frame-only decoding); 0 when unknown.
    public var frameCount: Int {
        get { fields.value.frameCount }
        set { fields.value.frameCount = newValue }
    }
    public var metrics: ImageMetrics {
        get { fields.value.metrics }
        set { fields.value.metrics = newValue }
    }
    /// The encoded bytes of an animated source (more than one frame), whatever thumbnail or
    /// transformer the image went through, so every frame can be decoded again
    /// (``CodersManager/openAnimation(_:)``, ``CodersManager/convertAnimation(_:decodeOptions:encodeOptions:transform:)``),
    /// as SDWebImage's `SDAnimatedImage.animatedImageData`: downloaded, or the original read
    /// from disk. Nil for a still image, for an image decoded from a transformed entry, and
    /// for a memory hit (unless ``ImageManagerOptions/queryMemoryData`` finds the original on disk).
    public var animatedImageData: Data? {
        get { fields.value.animatedImageData }
        set { fields.value.animatedImageData = newValue }
    }

    init(
        image: DecodedImage?, animation: DecodedAnimation?, data: Data?, cacheType: ImageCacheType, url: URL,
        cacheKey: String?, scale: Double, frameCount: Int, metrics: ImageMetrics, animatedImageData: Data? = nil
    ) {
        fields = OutOfLine(
            Fields(
                image: image, animation: animation, data: data, cacheType: cacheType, url: url, cacheKey: cacheKey,
                scale: scale, frameCount: frameCount, metrics: metrics, animatedImageData: animatedImageData))
    }

    private var fields: OutOfLine<Fields>

    private struct Fields: Sendable {
        var image: DecodedImage?
        var animation: DecodedAnimation?
        var data: Data?
        var cacheType: ImageCacheType
        var url: URL
        var cacheKey: String?
        var scale: Double
        var frameCount: Int
        var metrics: ImageMetrics
        var animatedImageData: Data?
    }
}

/// How long each part of a request took, and the transfer's own metrics.
public struct ImageMetrics: Sendable {
    /// From the request to its completion.
    public var total: Duration = .zero
    /// The transfer's metrics, when the image was downloaded.
    public var load: LoadMetrics? {
        get { boxedLoad?.value }
        set { boxedLoad = newValue.map(OutOfLine.init) }
    }

    /// ``load`` out of line: metrics travel in every result and event of a request, and the
    /// 112 bytes of a transfer's metrics took a slot of their own in each of the pipeline's
    /// async frames that held one.
    private var boxedLoad: OutOfLine<LoadMetrics>?
    /// True when this request shared a download, decode or transform with another.
    public var coalesced = false
    /// What the revalidation of a stale cached copy found (``ImageManagerOptions/revalidateStale``);
    /// nil when none was revalidated.
    public var revalidation: Revalidation?

    /// The outcome of a revalidation with the server.
    public enum Revalidation: Sendable, Equatable {
        /// 304: the cached copy is current; it was used and its freshness renewed.
        case notModified
        /// The server sent a new image; it was used and replaced the cached copy.
        case modified
    }

    public init() {}
}

/// What ``ImageManager/images(for:options:context:)`` yields, in order: progress and partial
/// images while downloading, then one `.completed` (two with ``ImageManagerOptions/refreshCached``
/// when the server has a new image).
public enum ImageEvent: Sendable {
    case progress(DownloadProgress)
    /// A partial image of a progressive download (trait `.partial`); never cached.
    case partial(DecodedImage)
    case completed(ImageResult)
}
