/// A running cache query that can be cancelled (SDWebImage's `SDWebImageOperation`). Its
/// completion is called exactly once: with the query's result, or with a `CancellationError`
/// when ``cancel()`` comes first.
public final class ImageCacheOperation: Sendable {
    public typealias Completion = @Sendable (Result<ImageCacheResult?, any Error>) -> Void

    private struct State {
        var completion: Completion?
        var task: Task<Void, Never>?
    }

    private let state: TrackedMutex<State>

    init(completion: @escaping Completion) {
        state = TrackedMutex(State(completion: completion))
    }

    func start(_ body: @escaping @Sendable () async throws -> ImageCacheResult?) {
        let task = Task {
            do {
                finish(.success(try await body()))
            } catch {
                finish(.failure(error))
            }
        }
        state.withLock { $0.task = task }
    }

    /// True once the completion has been called.
    public var isFinished: Bool { state.withLock { $0.completion == nil } }

    /// Cancels the query; the completion gets a `CancellationError` unless it already ran. Idempotent.
    public func cancel() {
        let task = state.withLock { $0.task }
        task?.cancel()
        finish(.failure(CancellationError()))
    }

    private func finish(_ result: Result<ImageCacheResult?, any Error>) {
        let completion = state.withLock { state -> Completion? in
            defer { state.completion = nil }
            return state.completion
        }
        completion?(result)
    }
}
