import FoundationEssentials

/// How an ``ImageCache`` query looks (SDWebImage's `SDImageCacheOptions` and context).
public struct ImageCacheQuery: Sendable, Equatable {
    /// Only the memory cache is asked; default false.
    public var memoryOnly = false
    /// Only the disk cache is asked (the memory cache is neither read nor filled); default false.
    public var diskOnly = false
    /// Decode only the first frame of an animation from disk; default false.
    public var firstFrameOnly = false
    /// Decode disk data as a thumbnail of this size; the result goes to memory under the
    /// thumbnail key (``CacheKeys/thumbnailKey(_:size:)``) and the full-size disk entry stays.
    /// With ``firstFrameOnly`` the memory key is also the first-frame key (``CacheKeys/firstFrameKey(_:)``).
    public var thumbnail: ThumbnailSize?
    /// Scale images with more pixels than this down to fit it while decoding (SDWebImage's
    /// `scaleDownLargeImages`); nil: full size.
    public var maxPixelCount: Int?

    public init(
        memoryOnly: Bool = false, firstFrameOnly: Bool = false, thumbnail: ThumbnailSize? = nil,
        maxPixelCount: Int? = nil, diskOnly: Bool = false
    ) {
        self.memoryOnly = memoryOnly
        self.diskOnly = diskOnly
        self.firstFrameOnly = firstFrameOnly
        self.thumbnail = thumbnail
        self.maxPixelCount = maxPixelCount
    }

    /// The key the decoded image is kept under in memory.
    func memoryKey(_ key: String) -> String {
        let decoded = thumbnail.map { CacheKeys.thumbnailKey(key, size: $0) } ?? key
        return firstFrameOnly ? CacheKeys.firstFrameKey(decoded) : decoded
    }
}

/// What a query found.
public struct ImageCacheResult: Sendable {
    public var image: DecodedImage
    /// The encoded bytes, when they came from disk.
    public var data: Data?
    /// `.memory` or `.disk`.
    public var cacheType: ImageCacheType
}
