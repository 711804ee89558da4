/// Downloads image bytes through ``ImageLoader``s with SDWebImageDownloader's behaviour:
/// a concurrency limit with FIFO or LIFO order and priorities, an optional start-rate limit,
/// one transfer for identical concurrent requests (each caller with its own progress,
/// completion and cancel), default and per-request headers, request and response modifiers,
/// a decryptor, acceptable status codes and content types, a size limit, conditional
/// requests and retries with backoff. Every loader plugin gets this behaviour.
public final class ImageDownloader: Sendable {
    public let configuration: ImageDownloaderConfiguration
    /// The loaders, asked in order for the first that serves a URL's scheme.
    public let loaders: [any ImageLoader]
    let state: TrackedMutex<State>
    /// The configuration's transfer limits, which the downloader watches itself.
    let transferLimits: TransferLimits

    struct State {
        /// Operations waiting for a slot, in the order they start, by host.
        var queue: HostShareQueue<DownloadOperation>
        var running = 0
        /// Running operations by host (``HostShareQueue/host(of:)``); a host has none when absent.
        var runningByHost: [String: Int] = [:]
        /// Queued and running operations by coalescing key.
        var operations: [String: DownloadOperation] = [:]
        var sequence: UInt64 = 0
        var bucket: TokenBucket?
        var wakeScheduled = false
        /// Bytes of interrupted downloads by URL (see ``ResumableData``).
        var resumable: [String: ResumableData] = [:]
        /// Running attempts whose ``TransferLimits`` are watched (``DownloadOperation/limitsWatch``).
        var watched: [ObjectIdentifier: DownloadOperation] = [:]
        /// True while the task that watches them runs.
        var watcherRunning = false
    }

    public init(loaders: [any ImageLoader], configuration: ImageDownloaderConfiguration = .init()) {
        self.loaders = loaders
        self.configuration = configuration
        self.transferLimits = TransferLimits(configuration)
        self.state = TrackedMutex(
            State(
                queue: HostShareQueue(lastInFirstOut: configuration.executionOrder == .lifo),
                bucket: configuration.rateLimit.map { TokenBucket(rate: $0) }))
    }

    /// Starts (or joins) a download. Handlers run on the loader's thread and must not block.
    /// - Parameters:
    ///   - progress: called at most once per ``ImageDownloaderConfiguration/minimumProgressInterval``
    ///     while the body arrives, and once at the end.
    ///   - completion: called exactly once, also after ``DownloadToken/cancel()``.
    @discardableResult
    public func download(
        _ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<DownloadResult, ImageLoadingError>) -> Void
    ) -> DownloadToken {
        subscribe(request, .init(events: nil, progress: progress, completion: completion))
    }

    /// ``download(_:progress:completion:)`` that also reports the response and each chunk of
    /// the body as it arrives (`events`, `.response` and `.data` only), for decoding while
    /// downloading. Handlers run on the loader's thread and must not block.
    @discardableResult
    public func download(
        _ request: DownloadRequest, events: @escaping @Sendable (DownloadEvent) -> Void,
        progress: (@Sendable (DownloadProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<DownloadResult, ImageLoadingError>) -> Void
    ) -> DownloadToken {
        subscribe(request, .init(events: events, progress: progress, completion: completion))
    }

    /// How many bytes of an interrupted download of `url` are kept for the next request to
    /// resume from (see ``ResumableData``); nil when none are. They are saved when the
    /// interrupted transfer has ended, which may be after its callers' completions.
    public func resumableByteCount(for url: String) -> Int? {
        state.withLock { $0.resumable[url]?.bytes.count }
    }

    /// Downloads `request`; cancelling the calling task cancels this caller's download.
    /// - Throws: ``ImageLoadingError``.
    public func download(_ request: DownloadRequest) async throws(ImageLoadingError) -> DownloadResult {
        let holder = TokenHolder()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                holder.set(download(request) { continuation.resume(returning: $0) })
            }
        } onCancel: {
            holder.cancel()
        }
        return try result.get()
    }

    /// The download's events: `.response`, `.data` and `.progress` as they come, then
    /// `.finished`; the sequence throws the ``ImageLoadingError``. Ending the iteration early
    /// (or cancelling its task) cancels this caller's download.
    public func events(for request: DownloadRequest) -> AsyncThrowingStream<DownloadEvent, any Error> {
        AsyncThrowingStream { continuation in
            let token = subscribe(
                request,
                .init(
                    events: { continuation.yield($0) }, progress: { continuation.yield(.progress($0)) },
                    completion: { result in
                        switch result {
                        case .success(let download):
                            continuation.yield(.finished(download))
                            continuation.finish()
                        case .failure(let error): continuation.finish(throwing: error)
                        }
                    }))
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    /// Downloads queued and running (each shared transfer counts once).
    public var activeCount: Int { state.withLock { $0.operations.count } }

    // MARK: - Queue

    private func subscribe(_ request: DownloadRequest, _ subscriber: DownloadOperation.Subscriber) -> DownloadToken {
        let joinKey = request.joinsIdenticalRequests ? request.coalescingKey : nil
        let token = state.withLock { state -> DownloadToken in
            if let joinKey, let operation = state.operations[joinKey] {
                // A joining caller raises a waiting transfer's priority, never lowers it.
                if let waiting = state.queue.priority(of: operation.sequence), request.priority > waiting {
                    state.queue.setPriority(request.priority, of: operation.sequence)
                }
                return DownloadToken(downloader: self, operation: operation, subscriberID: operation.add(subscriber))
            }
            state.sequence += 1
            // A request that no other joins is kept under a key no coalescing key can be (a
            // URL does not start with NUL), short enough to be stored inline.
            let key = joinKey ?? "\u{0}\(state.sequence)"
            let operation = DownloadOperation(key: key, request: request, sequence: state.sequence)
            state.operations[key] = operation
            state.queue.append(
                operation, sequence: operation.sequence, priority: request.priority, host: operation.host)
            return DownloadToken(downloader: self, operation: operation, subscriberID: operation.add(subscriber))
        }
        pump()
        return token
    }

    func setPriority(_ priority: ImagePriority, of token: DownloadToken) {
        state.withLock { $0.queue.setPriority(priority, of: token.operation.sequence) }
        pump()
    }

    func cancel(_ token: DownloadToken) {
        let operation = token.operation
        let (subscriber, taskToCancel) = state.withLock { state -> (DownloadOperation.Subscriber?, (any LoadTask)?) in
            guard let subscriber = operation.subscribers.removeValue(forKey: token.subscriberID) else {
                return (nil, nil)
            }
            guard operation.subscribers.isEmpty, operation.phase != .finished else { return (subscriber, nil) }
            operation.cancelled = true
            if state.operations[operation.key] === operation { state.operations[operation.key] = nil }
            if operation.phase == .queued {
                state.queue.remove(operation.sequence)
                operation.phase = .finished
                return (subscriber, nil)
            }
            return (subscriber, operation.loadTask)
        }
        subscriber?.completion(.failure(ImageLoadingError(.cancelled, "cancelled")))
        taskToCancel?.cancel()
    }

    /// Starts queued operations while slots (total and per host, and rate-limit tokens) allow.
    func pump() {
        let perHost = configuration.downloadsPerHost
        let (starting, wait) = state.withLock { state -> ([DownloadOperation], Duration?) in
            var starting: [DownloadOperation] = []
            while state.running < configuration.maxConcurrentDownloads, !state.queue.isEmpty {
                let running = state.runningByHost
                let hasRoom = { (host: String) in running[host, default: 0] < perHost }
                guard state.queue.hasNext(where: hasRoom) else { break }
                if let delay = state.bucket?.take() {
                    if state.wakeScheduled { return (starting, nil) }
                    state.wakeScheduled = true
                    return (starting, delay)
                }
                guard let (operation, host) = state.queue.takeNext(where: hasRoom) else { break }
                operation.phase = .running
                state.running += 1
                state.runningByHost[host, default: 0] += 1
                starting.append(operation)
            }
            return (starting, nil)
        }
        if let wait {
            Task {
                try? await Task.sleep(for: wait)
                state.withLock { $0.wakeScheduled = false }
                pump()
            }
        }
        for operation in starting { startTransfer(operation) }
    }
}

/// The token of a download started later (an async download, or a manager's download once
/// admitted): cancelled even when the cancel comes before the token, and re-prioritized once
/// it is there.
final class TokenHolder: Sendable {
    private let state = TrackedMutex<(token: DownloadToken?, cancelled: Bool)>((nil, false))

    func set(_ token: DownloadToken) {
        let cancelNow = state.withLock { state -> Bool in
            state.token = token
            return state.cancelled
        }
        if cancelNow { token.cancel() }
    }

    func cancel() {
        let token = state.withLock { state -> DownloadToken? in
            state.cancelled = true
            return state.token
        }
        token?.cancel()
    }

    func setPriority(_ priority: ImagePriority) {
        state.withLock { $0.token }?.setPriority(priority)
    }
}
