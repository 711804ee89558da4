/// One caller's handle on a download (SDWebImageDownloadToken): cancelling it ends this
/// caller's download with ``ImageLoadingError/Kind/cancelled``; the transfer stops when
/// its last caller cancels.
public final class DownloadToken: Sendable {
    private let downloader: ImageDownloader
    let operation: DownloadOperation
    let subscriberID: Int

    init(downloader: ImageDownloader, operation: DownloadOperation, subscriberID: Int) {
        self.downloader = downloader
        self.operation = operation
        self.subscriberID = subscriberID
    }

    /// Idempotent; does nothing once the download finished.
    public func cancel() {
        downloader.cancel(self)
    }

    /// Changes the priority while the download is queued (no effect once it started).
    public func setPriority(_ priority: ImagePriority) {
        downloader.setPriority(priority, of: self)
    }

    /// The URL downloaded.
    public var url: String { operation.request.url }
}
