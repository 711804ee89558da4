import WebImageCore

/// Feeds a file to an incremental decoder in pieces, as a slow network would deliver it.
public enum DripFeed {
    /// The ranges that split `0..<count` into pieces of `chunkSize` bytes (the last may be
    /// shorter); `chunkSize` must be positive.
    public static func chunks(count: Int, chunkSize: Int) -> [Range<Int>] {
        stride(from: 0, to: count, by: chunkSize).map { $0..<min($0 + chunkSize, count) }
    }

    /// Appends `bytes[start..<end]` to `decoder` in pieces of `chunkSize` bytes.
    ///
    /// - Parameters:
    ///   - start: the offset of the first byte to feed; default 0.
    ///   - end: the offset after the last byte to feed; default the end of `bytes`.
    ///   - isFinal: whether the last piece is marked final (no more bytes will come); default true.
    /// - Throws: whatever the decoder's `append` throws.
    public static func feed(
        _ bytes: [UInt8], to decoder: any IncrementalImageDecoder, chunkSize: Int, from start: Int = 0,
        upTo end: Int? = nil, isFinal: Bool = true
    ) throws {
        let end = end ?? bytes.count
        for range in chunks(count: end - start, chunkSize: chunkSize) {
            let piece = (range.lowerBound + start)..<(range.upperBound + start)
            try bytes[piece].withUnsafeBytes { try decoder.append($0, isFinal: isFinal && piece.upperBound == end) }
        }
    }
}
