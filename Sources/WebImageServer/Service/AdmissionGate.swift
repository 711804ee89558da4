import WebImageCore

/// At most `width` images processed at once and `queueLimit` requests waiting for a place;
/// a request beyond both is refused at once (the server's 503 with `Retry-After`), never
/// queued without bound. Waiters get places in arrival order; a waiter whose task is
/// cancelled (its request timed out) leaves the queue.
final class AdmissionGate: Sendable {
    /// Why a request got no place.
    struct Full: Error {}

    private struct State {
        var running = 0
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }

    let width: Int
    let queueLimit: Int
    private let state = TrackedMutex(State())

    init(width: Int, queueLimit: Int) {
        self.width = max(1, width)
        self.queueLimit = max(0, queueLimit)
    }

    /// Requests waiting for a place now.
    var queueDepth: Int { state.withLock { $0.waiters.count } }

    /// Places taken now: images being processed.
    var runningCount: Int { state.withLock { $0.running } }

    /// Runs `body` in a place, waiting for one in the queue when all are taken.
    /// - Throws: ``Full`` when the queue is full too; `CancellationError` when the task is
    ///   cancelled while it waits; what `body` throws.
    func run<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value {
        try await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async throws {
        enum Decision {
            case run
            case wait(UInt64)
            case full
        }
        let decision = state.withLock { state -> Decision in
            if state.running < width {
                state.running += 1
                return .run
            }
            guard state.waiters.count < queueLimit else { return .full }
            state.nextID += 1
            return .wait(state.nextID)
        }
        switch decision {
        case .run: return
        case .full: throw Full()
        case .wait(let id):
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let cancelled = state.withLock { state -> Bool in
                        if Task.isCancelled { return true }
                        state.waiters.append((id, continuation))
                        return false
                    }
                    if cancelled { continuation.resume(throwing: CancellationError()) }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index).continuation
                }
                waiter?.resume(throwing: CancellationError())
            }
        }
    }

    /// Gives the place to the first waiter, or frees it.
    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if state.waiters.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
