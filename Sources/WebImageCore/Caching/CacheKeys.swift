import FoundationEssentials

/// Cache keys of transformed images, thumbnails and first frames: the key, a space, then the
/// transformer key (`http://foo/image.png?a=b` with `Flip(h)` → `http://foo/image.png?a=b Flip(h)`).
///
/// No URL spells such a key: a URL's string (`URL.absoluteString`, the key of a URL without a
/// ``CacheKeyFilter``) never holds a space, so a transformed image and the image of another
/// URL never share an entry. SDWebImage's rule (`SDTransformedKeyForKey`: `-Flip(h)` before
/// the path extension) gives the flipped `image.png` the key of the URL `image-Flip(h).png`
/// on the same site, whose server could then poison it. Keys made by a ``CacheKeyFilter`` or
/// given to the cache directly are the caller's: one with a space can meet a transformed key.
public enum CacheKeys {
    /// What separates a key from the transformer key added to it: a space.
    public static let transformerKeySeparator = " "

    /// The key of `key` transformed by the transformer named `transformerKey`: `key`, a space,
    /// `transformerKey` (`image.png` → `image.png T`); `key` itself when `transformerKey` is empty.
    public static func transformedKey(_ key: String, transformerKey: String) -> String {
        transformerKey.isEmpty ? key : key + transformerKeySeparator + transformerKey
    }

    /// The transformer key that names a thumbnail: `Thumbnail(<width>x<height>,<1 or 0>)`, the
    /// last field saying whether the aspect ratio is preserved.
    public static func thumbnailTransformerKey(_ size: ThumbnailSize) -> String {
        "Thumbnail(\(size.width)x\(size.height),\(size.preservesAspectRatio ? 1 : 0))"
    }

    /// The key of the thumbnail of `key` at `size`: ``transformedKey(_:transformerKey:)`` with
    /// ``thumbnailTransformerKey(_:)``.
    public static func thumbnailKey(_ key: String, size: ThumbnailSize) -> String {
        transformedKey(key, transformerKey: thumbnailTransformerKey(size))
    }

    /// The transformer key that names a first-frame-only decode: `FirstFrame`.
    public static let firstFrameTransformerKey = "FirstFrame"

    /// The key of the first frame of `key` (``ImageManagerOptions/decodeFirstFrameOnly``):
    /// ``transformedKey(_:transformerKey:)`` with ``firstFrameTransformerKey``, so the still
    /// image is never found under the key of the full animation (as Nuke; SDWebImage shares it).
    public static func firstFrameKey(_ key: String) -> String {
        transformedKey(key, transformerKey: firstFrameTransformerKey)
    }
}

/// Turns a URL into the key images are cached under (SDWebImage's `SDWebImageCacheKeyFilter`),
/// for example to drop a query string that changes on every request.
public protocol CacheKeyFilter: Sendable {
    /// The key for `url`; nil means the image is not cached.
    func cacheKey(for url: URL) -> String?
}

/// Turns an image and the bytes it was decoded from into the bytes stored on disk
/// (SDWebImage's `SDWebImageCacheSerializer`).
public protocol CacheSerializer: Sendable {
    /// The bytes to store for `image`; `originalData` is what was downloaded (nil when the
    /// image was made in memory); nil means nothing is stored on disk.
    func cacheData(for image: DecodedImage, originalData: Data?, key: String) -> Data?
}
