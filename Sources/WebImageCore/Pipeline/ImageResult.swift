import FoundationEssentials

/// What a finished request delivers.
public struct ImageResult: Sendable {
    /// The decoded image; nil only with ``ImageManagerOptions/avoidDecodeImage``.
    public var image: DecodedImage?
    /// Every frame, with ``ImageManagerOptions/preloadAllFrames`` and an animated image.
    public var animation: DecodedAnimation?
    /// The encoded bytes the image came from: downloaded or read from disk; nil for memory
    /// hits (unless ``ImageManagerOptions/queryMemoryData``), thumbnails and transformed images.
    public var data: Data?
    /// Where it came from: `.none` (downloaded by the loader, SDWebImage's name; the CLI's
    /// "from the network"), `.memory` or `.disk`.
    public var cacheType: ImageCacheType
    public var url: URL
    /// The cache key of the result (thumbnail and transformer keys included); nil when the
    /// cache key filter gave none.
    public var cacheKey: String?
    /// The scale factor (``ImageContext/scaleFactor``, default 1).
    public var scale: Double
    /// Frames in the source (1 for a still image or with first-frame-only decoding); 0 when unknown.
    public var frameCount: Int
    public var metrics: ImageMetrics
    /// The encoded bytes of an animated source (more than one frame), whatever thumbnail or
    /// transformer the image went through, so every frame can be decoded again
    /// (``CodersManager/openAnimation(_:)``, ``CodersManager/convertAnimation(_:decodeOptions:encodeOptions:transform:)``),
    /// as SDWebImage's `SDAnimatedImage.animatedImageData`: downloaded, or the original read
    /// from disk. Nil for a still image, for an image decoded from a transformed entry, and
    /// for a memory hit (unless ``ImageManagerOptions/queryMemoryData`` finds the original on disk).
    public var animatedImageData: Data? = nil
}

/// How long each part of a request took, and the transfer's own metrics.
public struct ImageMetrics: Sendable {
    /// From the request to its completion.
    public var total: Duration = .zero
    /// The transfer's metrics, when the image was downloaded.
    public var load: LoadMetrics?
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
