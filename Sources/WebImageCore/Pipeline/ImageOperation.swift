import FoundationEssentials

/// One request of an ``ImageManager`` in SDWebImage's shape (`SDWebImageCombinedOperation`):
/// `cancel()` ends it at once with ``ImageManagerError/Kind/cancelled`` and leaves the shared
/// work (which stops when its last request leaves).
public final class ImageOperation: Sendable {
    public typealias Completion = @Sendable (Result<ImageResult, ImageManagerError>) -> Void

    private struct State {
        var subscription: WorkSubscription<ImageResult>?
        var progress: (@Sendable (ImageEvent) -> Void)?
        var completed: Completion?
        var ended: (@Sendable () -> Void)?
        var delivered = false
        var finished = false
        var cancelled = false
        var timeout: Task<Void, Never>?
        var priority: ImagePriority
    }

    /// The URL asked for; nil when it was nil or could not be parsed.
    public let url: URL?
    private let state: TrackedMutex<State>
    private let unregister: @Sendable (ImageOperation) -> Void

    init(
        url: URL?, priority: ImagePriority, progress: (@Sendable (ImageEvent) -> Void)?,
        completed: @escaping Completion, ended: (@Sendable () -> Void)? = nil,
        unregister: @escaping @Sendable (ImageOperation) -> Void
    ) {
        self.url = url
        self.unregister = unregister
        state = TrackedMutex(State(progress: progress, completed: completed, ended: ended, priority: priority))
    }

    /// True once cancelled.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// True once the operation ended (completed for the last time, failed or cancelled).
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// The priority this request asks for; the shared work runs at the highest of its requests'.
    public var priority: ImagePriority {
        get { state.withLock { $0.priority } }
        set {
            let subscription = state.withLock { state -> WorkSubscription<ImageResult>? in
                state.priority = newValue
                return state.subscription
            }
            subscription?.setPriority(newValue)
        }
    }

    /// Cancels the request: the completion gets `.cancelled` unless the request already ended. Idempotent.
    public func cancel() {
        end(with: .failure(.cancelled), cancelling: true)
    }

    func attach(_ subscription: WorkSubscription<ImageResult>) {
        let leave = state.withLock { state -> Bool in
            guard !state.finished else { return true }
            state.subscription = subscription
            return false
        }
        if leave { subscription.cancel() }
    }

    func startTimeout(_ duration: Duration) {
        let task = Task { [weak self] in
            try? await Task.sleep(for: duration)
            guard !Task.isCancelled, let self else { return }
            self.end(
                with: .failure(
                    ImageManagerError(.timedOut, "no image within \(duration)", url: self.url?.absoluteString)),
                cancelling: true)
        }
        state.withLock { $0.timeout = task }
    }

    /// Handles an event of the shared work.
    func receive(_ event: WorkEvent<ImageResult>, shared: Bool) {
        switch event {
        case .progress(let progress):
            if let handler = state.withLock({ $0.finished ? nil : $0.progress }) { handler(.progress(progress)) }
        case .partial(let image):
            if let handler = state.withLock({ $0.finished ? nil : $0.progress }) { handler(.partial(image)) }
        case .chunk:
            break
        case .intermediate(var result):
            result.metrics.coalesced = shared
            let handler = state.withLock { state -> Completion? in
                guard !state.finished else { return nil }
                state.delivered = true
                return state.completed
            }
            handler?(.success(result))
        case .finished(.success(.some(var result))):
            result.metrics.coalesced = shared
            end(with: .success(result), cancelling: false)
        case .finished(.success(.none)):
            let delivered = state.withLock { $0.delivered }
            end(with: delivered ? nil : .failure(ImageManagerError(.notInCache, "no image")), cancelling: false)
        case .finished(.failure(let error)):
            end(with: .failure(error), cancelling: false)
        }
    }

    /// Completes (when `result` is not nil) and ends; only the first end counts.
    func end(with result: Result<ImageResult, ImageManagerError>?, cancelling: Bool) {
        let ending = state.withLock {
            state -> (Completion?, WorkSubscription<ImageResult>?, Task<Void, Never>?, (@Sendable () -> Void)?)? in
            guard !state.finished else { return nil }
            state.finished = true
            state.cancelled = cancelling
            defer {
                state.completed = nil
                state.progress = nil
                state.ended = nil
                state.subscription = nil
            }
            return (state.completed, state.subscription, state.timeout, state.ended)
        }
        guard let (completed, subscription, timeout, ended) = ending else { return }
        timeout?.cancel()
        if cancelling { subscription?.cancel() }
        if let result { completed?(result) }
        ended?()
        unregister(self)
    }
}
