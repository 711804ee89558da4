/// One transfer of an ``ImageDownloader``, shared by every caller of an identical request.
/// All mutable state is guarded by the downloader's lock.
final class DownloadOperation: @unchecked Sendable {
    // @unchecked: every `var` is read and written only while the owning downloader's
    // `state` Mutex is held.

    /// One caller of the download.
    struct Subscriber: Sendable {
        let events: (@Sendable (DownloadEvent) -> Void)?
        let progress: (@Sendable (DownloadProgress) -> Void)?
        let completion: @Sendable (Result<DownloadResult, ImageLoadingError>) -> Void
    }

    enum Phase {
        case queued
        case running
        case finished
    }

    let key: String
    let request: DownloadRequest
    /// The host whose share of the slots the operation takes (``HostShareQueue/host(of:)``).
    let host: String
    /// Order of arrival, for FIFO and LIFO; also names the operation in the downloader's
    /// queue, which keeps its priority while it waits.
    let sequence: UInt64
    var phase = Phase.queued
    var subscribers: [Int: Subscriber] = [:]
    var nextSubscriberID = 0
    /// True once the last caller left: the transfer stops and the operation ends cancelled.
    var cancelled = false
    /// Counts transfer attempts; events of an older attempt are ignored.
    var attempt = 0
    var loadTask: (any LoadTask)?
    var response: LoadResponse?
    var body: [UInt8] = []
    /// A failure decided by the downloader (bad status, too large...) before the transfer ended.
    var failure: ImageLoadingError?
    var lastProgress: ContinuousClock.Instant?
    /// Saved bytes this attempt asked the rest of (with Range and If-Range).
    var resuming: ResumableData?
    /// Body bytes this attempt received (saved bytes it resumes from not counted), for the
    /// low-speed limit.
    var receivedBytes: UInt64 = 0
    /// This attempt's samples for the ``TransferLimits``, while the downloader watches it.
    var limitsWatch: LimitsWatch?

    init(key: String, request: DownloadRequest, sequence: UInt64) {
        self.key = key
        self.request = request
        self.host = HostShareQueue<Void>.host(of: request.url)
        self.sequence = sequence
    }

    func add(_ subscriber: Subscriber) -> Int {
        let id = nextSubscriberID
        nextSubscriberID += 1
        subscribers[id] = subscriber
        return id
    }

    var progress: DownloadProgress {
        DownloadProgress(receivedBytes: UInt64(body.count), expectedBytes: response?.expectedContentLength)
    }
}
