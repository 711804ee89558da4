import Foundation

/// Cache keys of transformed images and thumbnails, by SDWebImage's rules
/// (`SDTransformedKeyForKey`, `SDThumbnailedKeyForKey`).
public enum CacheKeys {
    /// The key of `key` transformed by the transformer named `transformerKey`: the transformer
    /// key goes before the path extension of a URL's path with `-` as separator, and the
    /// query and fragment stay (`http://foo/image.png?a=b#c` → `http://foo/image-T.png?a=b#c`);
    /// a file URL or a plain key with an extension gets it before the extension
    /// (`/a/image.png` → `/a/image-T.png`); a key without an extension gets `-T` at the end.
    public static func transformedKey(_ key: String, transformerKey: String) -> String {
        if let url = URL(string: key), url.scheme != nil, !url.isFileURL,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        {
            let path = components.path as NSString
            let pathExtension = path.pathExtension
            if !pathExtension.isEmpty {
                components.path = path.deletingPathExtension + "-" + transformerKey + "." + pathExtension
                if let transformed = components.string { return transformed }
            }
            return key + "-" + transformerKey
        }
        let plain = key as NSString
        let pathExtension = URL(string: key)?.pathExtension ?? plain.pathExtension
        guard !pathExtension.isEmpty, key.hasSuffix("." + pathExtension) else { return key + "-" + transformerKey }
        return String(key.dropLast(pathExtension.count + 1)) + "-" + transformerKey + "." + pathExtension
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
