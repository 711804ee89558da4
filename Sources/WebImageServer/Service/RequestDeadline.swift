import Synchronization

/// The server's time limit on one request: ``run(within:_:)`` returns the work's value, or
/// throws ``Expired`` once the limit passes even when the work is waiting for something that
/// does not stop on cancellation (a result being made for other requests too); the work is
/// then cancelled.
enum RequestDeadline {
    /// The time limit passed.
    struct Expired: Error {}

    static func run<Value: Sendable>(
        within limit: Duration, _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let race = Race<Value>()
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
        private let continuation = Mutex<CheckedContinuation<Value, any Error>?>(nil)
        private let tasks = Mutex<(work: Task<Void, Never>?, timer: Task<Void, Never>?)>((nil, nil))

        func start(
            _ continuation: CheckedContinuation<Value, any Error>, limit: Duration,
            work: @escaping @Sendable () async throws -> Value
        ) {
            self.continuation.withLock { $0 = continuation }
            let workTask = Task {
                let result: Result<Value, any Error>
                do {
                    result = .success(try await work())
                } catch {
                    result = .failure(error)
                }
                self.finish(with: result)
            }
            let timerTask = Task {
                try? await Task.sleep(for: limit)
                guard !Task.isCancelled else { return }
                self.finish(with: .failure(Expired()))
            }
            tasks.withLock { $0 = (workTask, timerTask) }
        }

        /// Answers with `result` unless answered already, and stops the other side.
        private func finish(with result: Result<Value, any Error>) {
            guard let continuation = continuation.withLock({ $0.take() }) else { return }
            continuation.resume(with: result)
            cancel()
        }

        func cancel() {
            let (work, timer) = tasks.withLock { $0 }
            work?.cancel()
            timer?.cancel()
        }
    }
}
