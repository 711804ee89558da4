/// Cache keys of transformed images: the transformer key goes before the file extension,
/// as SDWebImage names them: `image.png` with key `Flip(h)-Blur(4)` becomes
/// `image-Flip(h)-Blur(4).png`.
public enum TransformerCacheKey {
    /// `key` with `-transformerKey` inserted before the extension of its last path
    /// segment (a query or fragment stays at the end), or appended when there is no
    /// extension. An empty `transformerKey` returns `key` unchanged.
    public static func transformed(_ key: String, transformerKey: String) -> String {
        guard !transformerKey.isEmpty else { return key }
        let suffixStart = key.firstIndex { $0 == "?" || $0 == "#" } ?? key.endIndex
        let path = key[..<suffixStart]
        let suffix = key[suffixStart...]
        let segmentStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[segmentStart...].lastIndex(of: "."), dot != segmentStart,
            path.index(after: dot) != path.endIndex
        else { return path + "-" + transformerKey + suffix }
        return path[..<dot] + "-" + transformerKey + path[dot...] + suffix
    }
}
