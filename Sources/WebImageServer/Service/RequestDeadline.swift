import Dispatch
import WebImageCore

/// The server's time limit on one request: ``run(within:_:observingRace:)`` returns the work's
/// value, or throws ``Expired`` once the limit passes even when the work is waiting for something
/// that does not stop on cancellation (a result being made for other requests too); the work is
/// then cancelled.
///
/// The limit is a dispatch timer that is cancelled, and its memory freed, as soon as the work
/// ends. (A sleeping task as the timer kept each request's state until the limit passed, 30 s
/// by default: at 10,000 requests a second that held over 100 MiB.)
enum RequestDeadline {
    /// The time limit passed.
    struct Expired: Error {}

    /// `observingRace` gets the object that holds the request's continuation, timer and work
    /// (for tests: it is released once `run` has returned and the timer is cancelled).
    static func run<Value: Sendable>(
        within limit: Duration, _ work: @escaping @Sendable () async throws -> Value,
        observingRace: (AnyObject) -> Void = { _ in }
    ) async throws -> Value {
        let race = Race<Value>()
        observingRace(race)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                race.start(continuation, limit: limit, work: work)
            }
        } onCancel: {
            race.cancel()
        }
    }

    /// The work and the timer, the first to end answering the continuation.
    private final class Race<Value: Sendable>: Sendable {
        private let continuation = TrackedMutex<CheckedContinuation<Value, any Error>?>(nil)
        private let work = TrackedMutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))
        // nonisolated(unsafe): a dispatch source is thread-safe; it is set up once, in `start`,
        // and only cancelled after that.
        nonisolated(unsafe) private let timer = DispatchSource.makeTimerSource(queue: .global())

        func start(
            _ continuation: CheckedContinuation<Value, any Error>, limit: Duration,
            work: @escaping @Sendable () async throws -> Value
        ) {
            self.continuation.withLock { $0 = continuation }
            // The timer is armed before the work starts, so work that ends at once still finds
            // it to cancel. Its handler holds this object until the timer is cancelled or fires.
            timer.setEventHandler { self.finish(with: .failure(Expired())) }
            let (seconds, attoseconds) = limit.components
            timer.schedule(
                deadline: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
            timer.activate()
            let task = Task {
                let result: Result<Value, any Error>
                do {
                    result = .success(try await work())
                } catch {
                    result = .failure(error)
                }
                self.finish(with: result)
            }
            let cancelled = self.work.withLock { state -> Bool in
                state.task = task
                return state.cancelled
            }
            if cancelled { task.cancel() }
        }

        /// Answers with `result` unless answered already, and stops the other side.
        private func finish(with result: Result<Value, any Error>) {
            guard let continuation = continuation.withLock({ $0.take() }) else { return }
            continuation.resume(with: result)
            cancel()
        }

        /// Stops the timer (freeing its handler) and cancels the work.
        func cancel() {
            timer.cancel()
            let task = work.withLock { state -> Task<Void, Never>? in
                state.cancelled = true
                return state.task
            }
            task?.cancel()
        }
    }
}
