/// Where a prefetch stands (SDWebImagePrefetcher's counts).
public struct PrefetchProgress: Sendable, Equatable {
    /// URLs that ended: loaded, failed or skipped.
    public var finished: Int
    /// URLs not tried: nil, empty or unparseable, or refused at once (in the failed-URL list,
    /// no loader for the scheme).
    public var skipped: Int
    /// URLs tried that failed.
    public var failed: Int
    /// URLs asked for.
    public var total: Int

    public init(finished: Int = 0, skipped: Int = 0, failed: Int = 0, total: Int) {
        self.finished = finished
        self.skipped = skipped
        self.failed = failed
        self.total = total
    }
}
