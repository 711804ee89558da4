import Foundation

/// How an ``ImageCache`` query looks (SDWebImage's `SDImageCacheOptions` and context).
public struct ImageCacheQuery: Sendable, Equatable {
    /// Only the memory cache is asked; default false.
    public var memoryOnly = false
    /// Decode only the first frame of an animation from disk; default false.
    public var firstFrameOnly = false
    /// Decode disk data as a thumbnail of this size; the result goes to memory under the
    /// thumbnail key (``CacheKeys/thumbnailKey(_:size:)``) and the full-size disk entry stays.
    public var thumbnail: ThumbnailSize?
    /// Scale images with more pixels than this down to fit it while decoding (SDWebImage's
    /// `scaleDownLargeImages`); nil: full size.
    public var maxPixelCount: Int?

    public init(
        memoryOnly: Bool = false, firstFrameOnly: Bool = false, thumbnail: ThumbnailSize? = nil,
        maxPixelCount: Int? = nil
    ) {
        self.memoryOnly = memoryOnly
        self.firstFrameOnly = firstFrameOnly
        self.thumbnail = thumbnail
        self.maxPixelCount = maxPixelCount
    }

    /// The key the decoded image is kept under in memory.
    func memoryKey(_ key: String) -> String {
        guard let thumbnail else { return key }
        return CacheKeys.thumbnailKey(key, size: thumbnail)
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
