import WebImageCore

/// Feeds a file to an incremental decoder in pieces, as a slow network would deliver it.
public enum DripFeed {
    /// The ranges that split `0..<count` into pieces of `chunkSize` bytes (the last may be
    /// shorter); `chunkSize` must be positive.
    public static func chunks(count: Int, chunkSize: Int) -> [Range<Int>] {
        stride(from: 0, to: count, by: chunkSize).map { $0..<min($0 + chunkSize, count) }
    }

    /// Appends `bytes[0..<end]` to `decoder` in pieces of `chunkSize` bytes.
    ///
    /// - Parameters:
    ///   - end: how many bytes of `bytes` to feed; default all of them.
    ///   - isFinal: whether the last piece is marked final (no more bytes will come); default true.
    /// - Throws: whatever the decoder's `append` throws.
    public static func feed(
        _ bytes: [UInt8], to decoder: any IncrementalImageDecoder, chunkSize: Int, upTo end: Int? = nil,
        isFinal: Bool = true
    ) throws {
        let end = end ?? bytes.count
        for range in chunks(count: end, chunkSize: chunkSize) {
            try bytes[range].withUnsafeBytes { try decoder.append($0, isFinal: isFinal && range.upperBound == end) }
        }
    }
}
