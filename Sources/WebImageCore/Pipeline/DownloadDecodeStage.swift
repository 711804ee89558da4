/// The decode of one download, run for a decode work: it joins the download's shared work
/// with a handler instead of a waiting task, queues the decode when the bytes arrive, and
/// finishes the decode work from the decoding thread.
///
/// A downloaded image thus reaches its decoder, and the decoded image its subscribers,
/// without a stop on the cooperative thread pool in between (each stop there woke an idle
/// pool thread, which preempted a running decode).
final class DownloadDecodeStage: Sendable {
    private struct State {
        var subscription: WorkSubscription<DownloadedData>?
        var ticket: WorkQueueTicket?
        /// The queued download's place in the manager's admission, released when its decode
        /// starts or leaves the queue.
        var lease: DownloadLease?
        var cancelled = false
    }

    private let work: SharedWork<DecodedPayload>
    private let progressive: ProgressiveDecoder?
    private let queue: WorkQueue
    private let decode: @Sendable (DownloadedData) throws(ImageManagerError) -> DecodedPayload
    private let state = TrackedMutex(State())

    /// - Parameters:
    ///   - work: the decode work this stage finishes.
    ///   - progressive: gets the bytes as they arrive, for partial images (progressive-load).
    ///   - queue: where `decode` runs, at the work's priority.
    ///   - decode: decodes the downloaded bytes.
    init(
        work: SharedWork<DecodedPayload>, progressive: ProgressiveDecoder?, queue: WorkQueue,
        decode: @escaping @Sendable (DownloadedData) throws(ImageManagerError) -> DecodedPayload
    ) {
        self.work = work
        self.progressive = progressive
        self.queue = queue
        self.decode = decode
    }

    /// Joins (or starts, with `startDownload`) the download `key` of `downloads`.
    func start(
        downloads: WorkRegistry<ImageRequestKeys.Download, DownloadedData>, key: ImageRequestKeys.Download,
        startDownload: (SharedWork<DownloadedData>) -> Void
    ) {
        let subscription = downloads.subscribe(
            key: key, priority: work.priority, handler: { [self] event in received(event) }, start: startDownload)
        let cancelled = state.withLock { state -> Bool in
            state.subscription = subscription
            return state.cancelled
        }
        if cancelled { subscription.cancel() }
    }

    /// Leaves the download, or removes the queued decode; a decode already running finishes
    /// unseen (the work has no subscribers left).
    func cancel() {
        let (subscription, ticket, lease) = state.withLock { state in
            state.cancelled = true
            return (state.subscription, state.ticket, state.lease)
        }
        progressive?.finish()
        subscription?.cancel()
        if ticket?.cancel() == true { lease?.release() }
    }

    /// Follows the decode work's priority: the download's subscription and the queued decode.
    func setPriority(_ priority: DownloadRequest.Priority) {
        let (subscription, ticket) = state.withLock { ($0.subscription, $0.ticket) }
        subscription?.setPriority(priority)
        ticket?.setPriority(priority)
    }

    private func received(_ event: WorkEvent<DownloadedData>) {
        switch event {
        case .progress(let progress):
            work.send(.progress(progress))
        case .chunk(let bytes, let offset):
            progressive?.append(bytes, offset: offset)
        case .finished(.success(let download?)):
            progressive?.finish()
            queueDecode(of: download)
        case .finished(.success(nil)):
            progressive?.finish()
            work.send(.finished(.success(nil)))
        case .finished(.failure(let error)):
            progressive?.finish()
            work.send(.finished(.failure(error)))
        case .partial, .intermediate:
            break
        }
    }

    private func queueDecode(of download: DownloadedData) {
        let ticket = queue.enqueue(priority: work.priority) { [self] in
            // Decoding starts: the bytes no longer wait, and the next download may start.
            download.lease?.release()
            guard !state.withLock({ $0.cancelled }) else { return }
            let result = Result { () throws(ImageManagerError) in try decode(download) }
            work.send(.finished(result.map { $0 }))
        }
        let cancelled = state.withLock { state -> Bool in
            state.ticket = ticket
            state.lease = download.lease
            return state.cancelled
        }
        if cancelled, ticket.cancel() { download.lease?.release() }
    }
}
