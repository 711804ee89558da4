/// A finished download: the response head, the complete body (after the decryptor) and
/// the transfer's metrics.
public struct DownloadResult: Sendable, Equatable {
    public var response: LoadResponse
    public var data: [UInt8]
    public var metrics: LoadMetrics

    public init(response: LoadResponse, data: [UInt8], metrics: LoadMetrics) {
        self.response = response
        self.data = data
        self.metrics = metrics
    }
}

/// How far a download got.
public struct DownloadProgress: Sendable, Equatable {
    /// Body bytes received so far.
    public var receivedBytes: UInt64
    /// The Content-Length, when the server sent one.
    public var expectedBytes: UInt64?

    public init(receivedBytes: UInt64, expectedBytes: UInt64?) {
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
    }
}

/// What ``ImageDownloader/events(for:)`` yields.
public enum DownloadEvent: Sendable, Equatable {
    case response(LoadResponse)
    /// A chunk of the body as it arrived (before the decryptor), so decoding can start early.
    case data([UInt8])
    case progress(DownloadProgress)
    /// The last event.
    case finished(DownloadResult)
}
