import Synchronization

/// How much work an ``ImageManager`` did, for tests and benchmarks: each count is of work
/// actually performed (shared work counts once).
public final class PipelineCounters: Sendable {
    private let downloadCount = Atomic<Int>(0)
    private let decodeCount = Atomic<Int>(0)
    private let partialDecodeCount = Atomic<Int>(0)
    private let transformCount = Atomic<Int>(0)
    private let storeCount = Atomic<Int>(0)
    private let cacheQueryCount = Atomic<Int>(0)
    private let storeFailureCount = Atomic<Int>(0)
    private let firstStoreError = TrackedMutex<CacheError?>(nil)
    private let downloadedByteCount = Atomic<Int>(0)

    init() {}

    /// Downloads started (each shared download once; retries inside the downloader not counted).
    public var downloads: Int { downloadCount.load(ordering: .relaxed) }
    /// Full decodes of downloaded or disk bytes (each shared decode once).
    public var decodes: Int { decodeCount.load(ordering: .relaxed) }
    /// Decodes of partial images while a progressive download ran.
    public var partialDecodes: Int { partialDecodeCount.load(ordering: .relaxed) }
    /// Transformer chains (or chain steps) run, one per image transformed by one transformer.
    public var transforms: Int { transformCount.load(ordering: .relaxed) }
    /// Stores to a cache (each key and cache once per store).
    public var stores: Int { storeCount.load(ordering: .relaxed) }
    /// Cache lookups made.
    public var cacheQueries: Int { cacheQueryCount.load(ordering: .relaxed) }

    func countDownload() { downloadCount.add(1, ordering: .relaxed) }

    /// Body bytes received by the downloads that finished (``LoadMetrics/bytesReceived``,
    /// each shared download once).
    public var downloadedBytes: Int { downloadedByteCount.load(ordering: .relaxed) }

    func countDownloadedBytes(_ count: UInt64) {
        downloadedByteCount.add(Int(clamping: count), ordering: .relaxed)
    }
    func countDecode() { decodeCount.add(1, ordering: .relaxed) }
    func countPartialDecode() { partialDecodeCount.add(1, ordering: .relaxed) }
    func countTransform() { transformCount.add(1, ordering: .relaxed) }
    func countStore() { storeCount.add(1, ordering: .relaxed) }
    func countCacheQuery() { cacheQueryCount.add(1, ordering: .relaxed) }

    /// Stores that failed (a full or read-only file system, an entry over the cache's limit...),
    /// each also counted in ``stores``. A failed store is not the request's failure: the image
    /// is delivered and the next request for it loads it again.
    public var storeFailures: Int { storeFailureCount.load(ordering: .relaxed) }
    /// Why the first failed store failed; nil while none has.
    public var firstStoreFailure: CacheError? { firstStoreError.withLock { $0 } }

    func countStoreFailure(_ error: any Error) {
        let cacheError = error as? CacheError ?? CacheError(.internalError, "\(error)")
        firstStoreError.withLock { first in first = first ?? cacheError }
        storeFailureCount.add(1, ordering: .relaxed)
    }
}
