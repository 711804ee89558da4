/// One run of a decode or transform work (Nuke's task with a dependency): it waits for its
/// input, queues its job on its stage's queue at the work's priority, and finishes the work
/// from the queue's thread. The input is the shared work it depends on (a download, a decode,
/// a shorter transform chain), joined with a handler rather than a waiting task, or a value at
/// hand (cached bytes, a cached original).
///
/// An input thus reaches its job, and the job's output its subscribers, without a stop on the
/// cooperative thread pool in between (each stop there woke an idle pool thread, which
/// preempted a running decode). The work's priority reaches the input and the queued job; the
/// last subscriber leaving the work cancels the stage, which leaves its input (the last to
/// leave that cancels it in turn) or removes its queued job; a job already running finishes
/// unseen (the work has no subscribers left).
final class QueuedStage<Input: Sendable>: Sendable {
    typealias Job = @Sendable (Input) throws(ImageManagerError) -> DecodedPayload

    private struct State {
        var subscription: WorkSubscription<Input>?
        var ticket: WorkQueueTicket?
        /// Releases the queued input (``init(work:queue:progressive:release:job:)``'s `release`).
        var releaseQueued: (@Sendable () -> Void)?
        var cancelled = false
    }

    private let work: SharedWork<DecodedPayload>
    private let queue: WorkQueue
    private let progressive: ProgressiveDecoder?
    private let release: (@Sendable (Input) -> Void)?
    private let job: Job
    /// The lock of ``unlockedState``, of a concrete type (``SharedWork``'s lock says why).
    private let lock = TrackedMutex(())
    /// Read and written only in ``withState(_:)``, under ``lock``.
    nonisolated(unsafe) private var unlockedState = State()

    /// Runs `body` on the state under the lock.
    private func withState<Result>(_ body: (inout State) -> sending Result) -> sending Result {
        lock.withLock { _ in body(&unlockedState) }
    }

    /// - Parameters:
    ///   - work: the work this stage finishes; its cancel and priority handlers are the stage's.
    ///   - queue: where `job` runs, at the work's priority.
    ///   - progressive: gets a download's bytes as they arrive, for partial images; default none.
    ///   - release: called once for an input whose job starts or leaves the queue unrun (a
    ///     download's place in the manager's admission); default none.
    ///   - job: the work's value made from the input.
    init(
        work: SharedWork<DecodedPayload>, queue: WorkQueue, progressive: ProgressiveDecoder? = nil,
        release: (@Sendable (Input) -> Void)? = nil, job: @escaping Job
    ) {
        self.work = work
        self.queue = queue
        self.progressive = progressive
        self.release = release
        self.job = job
        work.setHandlers(cancel: { [self] in cancel() }, priority: { [self] in setPriority($0) })
    }

    /// Joins (or starts, with `startInput`) the input work `key` of `inputs`.
    func start<Key: Hashable & Sendable>(
        after inputs: WorkRegistry<Key, Input>, key: Key, startInput: (SharedWork<Input>) -> Void
    ) {
        let subscription = inputs.subscribe(
            key: key, priority: work.priority, handler: { [self] event in received(event) }, start: startInput)
        let cancelled = withState { state -> Bool in
            state.subscription = subscription
            return state.cancelled
        }
        if cancelled { subscription.cancel() }
    }

    /// Queues the job for an input at hand.
    func start(with input: Input) { queueJob(input) }

    private func cancel() {
        let (subscription, ticket, releaseQueued) = withState { state in
            state.cancelled = true
            return (state.subscription, state.ticket, state.releaseQueued)
        }
        progressive?.finish()
        subscription?.cancel()
        if ticket?.cancel() == true { releaseQueued?() }
    }

    private func setPriority(_ priority: ImagePriority) {
        let (subscription, ticket) = withState { ($0.subscription, $0.ticket) }
        subscription?.setPriority(priority)
        ticket?.setPriority(priority)
    }

    private func received(_ event: WorkEvent<Input>) {
        switch event {
        case .progress(let progress):
            work.send(.progress(progress))
        case .partial(let image):
            work.send(.partial(image))
        case .chunk(let bytes, let offset):
            progressive?.append(bytes, offset: offset)
        case .intermediate:
            break
        case .finished(let result):
            progressive?.finish()
            switch result {
            case .success(let input?): queueJob(input)
            case .success(nil): work.send(.finished(.success(nil)))
            case .failure(let error): work.send(.finished(.failure(error)))
            }
        }
    }

    private func queueJob(_ input: Input) {
        let release = release.map { release in { @Sendable in release(input) } }
        let ticket = queue.enqueue(priority: work.priority) { [self] in
            // The job starts: its input no longer waits (the next download may start).
            release?()
            guard !withState({ $0.cancelled }) else { return }
            let result = Result { () throws(ImageManagerError) in try job(input) }
            work.send(.finished(result.map { $0 }))
        }
        let cancelled = withState { state -> Bool in
            state.ticket = ticket
            state.releaseQueued = release
            return state.cancelled
        }
        if cancelled, ticket.cancel() { release?() }
    }
}
