import FoundationEssentials

/// One call of ``ImagePrefetcher/prefetch(_:progress:completion:)``: its URLs, counts and
/// running requests. ``cancel()`` stops what runs and drops what waits; the completion is
/// not called then (SDWebImage's behaviour).
public final class PrefetchToken: Sendable {
    struct State {
        var progress: PrefetchProgress
        /// Index of the next URL to start.
        var next = 0
        var running: [Int: ImageOperation] = [:]
        var cancelled = false
        var completed = false
        /// URLs that ended (a refresh can complete twice; it counts once).
        var ended = Set<Int>()
        /// Counts not yet reported, in the order they were counted; `done` marks the last.
        var undelivered: [(progress: PrefetchProgress, done: Bool)] = []
        /// True while a thread reports them.
        var delivering = false
        /// The URLs that failed or were skipped, in the order they ended.
        var failures: [PrefetchFailure] = []
    }

    let urls: [URL?]
    let state: TrackedMutex<State>
    let onProgress: (@Sendable (PrefetchProgress) -> Void)?
    let onCompletion: (@Sendable (PrefetchProgress) -> Void)?
    let prefetcher: ImagePrefetcher

    init(
        urls: [URL?], prefetcher: ImagePrefetcher, progress: (@Sendable (PrefetchProgress) -> Void)?,
        completion: (@Sendable (PrefetchProgress) -> Void)?
    ) {
        self.urls = urls
        self.prefetcher = prefetcher
        state = TrackedMutex(State(progress: PrefetchProgress(total: urls.count)))
        onProgress = progress
        onCompletion = completion
    }

    /// The counts so far.
    public var progress: PrefetchProgress { state.withLock { $0.progress } }

    /// True once every URL ended (the completion ran) or the token was cancelled.
    public var isFinished: Bool { state.withLock { $0.completed || $0.cancelled } }

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// The URLs that failed or were skipped so far, with their errors, in list order.
    public var failures: [PrefetchFailure] { state.withLock { $0.failures }.sorted { $0.index < $1.index } }

    /// Cancels this prefetch's requests and forgets its waiting URLs. Idempotent.
    public func cancel() {
        let running = state.withLock { state -> [ImageOperation] in
            guard !state.cancelled, !state.completed else { return [] }
            state.cancelled = true
            defer { state.running.removeAll() }
            return Array(state.running.values)
        }
        for operation in running { operation.cancel() }
        prefetcher.schedule()
    }

    /// The next URL to start, or nil when none waits.
    func takeNext() -> (index: Int, url: URL?)? {
        state.withLock { state in
            guard !state.cancelled, state.next < urls.count else { return nil }
            defer { state.next += 1 }
            return (state.next, urls[state.next])
        }
    }

    var hasWaiting: Bool { state.withLock { !$0.cancelled && $0.next < urls.count } }

    func started(_ index: Int, _ operation: ImageOperation) {
        let cancelled = state.withLock { state -> Bool in
            if state.cancelled { return true }
            if !operation.isFinished { state.running[index] = operation }
            return false
        }
        if cancelled { operation.cancel() }
    }

    /// Counts the end of URL `index`; calls progress, and the completion after the last.
    ///
    /// URLs end on several threads at once, so one thread at a time reports the counts, in the
    /// order they were counted: it reports in a loop those counted meanwhile (including by a
    /// callback of its own, such as one that cancels the token), and no lock is held while a
    /// callback runs.
    /// `failure` is nil when the URL loaded.
    func ended(_ index: Int, failure: PrefetchFailure?) {
        let reports = state.withLock { state -> Bool in
            state.running[index] = nil
            guard !state.cancelled, state.ended.insert(index).inserted else { return false }
            state.progress.finished += 1
            if let failure {
                state.failures.append(failure)
                if failure.skipped { state.progress.skipped += 1 } else { state.progress.failed += 1 }
            }
            let done = state.progress.finished == state.progress.total && !state.completed
            if done { state.completed = true }
            state.undelivered.append((state.progress, done))
            guard !state.delivering else { return false }
            state.delivering = true
            return true
        }
        guard reports else { return }
        while let (progress, done) = state.withLock({ state -> (PrefetchProgress, Bool)? in
            guard !state.undelivered.isEmpty else {
                state.delivering = false
                return nil
            }
            return state.undelivered.removeFirst()
        }) {
            onProgress?(progress)
            if done { onCompletion?(progress) }
        }
    }

    /// Completes a prefetch of no URL.
    func completeEmpty() {
        state.withLock { $0.completed = true }
        onCompletion?(PrefetchProgress(total: 0))
    }
}
