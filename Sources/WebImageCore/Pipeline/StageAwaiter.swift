/// The shared-work subscriptions a running request holds, so a priority change of the
/// request reaches the stages it waits for.
final class PriorityRelay: Sendable {
    private struct State {
        var priority: ImagePriority
        var targets: [Int: @Sendable (ImagePriority) -> Void] = [:]
        var next = 0
    }

    private let state: TrackedMutex<State>

    init(priority: ImagePriority) {
        state = TrackedMutex(State(priority: priority))
    }

    var priority: ImagePriority { state.withLock { $0.priority } }

    func set(_ priority: ImagePriority) {
        let targets = state.withLock { state -> [@Sendable (ImagePriority) -> Void] in
            state.priority = priority
            return Array(state.targets.values)
        }
        for target in targets { target(priority) }
    }

    func add(_ target: @escaping @Sendable (ImagePriority) -> Void) -> Int {
        state.withLock { state in
            state.next += 1
            state.targets[state.next] = target
            return state.next
        }
    }

    func remove(_ id: Int) { _ = state.withLock { $0.targets.removeValue(forKey: id) } }
}

/// Waits for a shared work's end as one subscriber: cancelling the waiting task leaves the
/// work (the last to leave cancels it); progress and partial images go to `forward`.
enum StageAwaiter {
    final class Box<Value: Sendable>: Sendable {
        struct State {
            var continuation: CheckedContinuation<Result<Value?, ImageManagerError>, Never>?
            var result: Result<Value?, ImageManagerError>?
            var subscription: WorkSubscription<Value>?
            var cancelled = false
            var relayID: Int?
        }
        let state = TrackedMutex(State())

        func resume(_ result: Result<Value?, ImageManagerError>) {
            let continuation = state.withLock {
                state -> CheckedContinuation<Result<Value?, ImageManagerError>, Never>? in
                guard state.result == nil else { return nil }
                state.result = result
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(returning: result)
        }
    }

    /// Joins (or starts) the work `key` of `registry` and returns its value (nil when it
    /// ended without one).
    /// - Throws: the work's ``ImageManagerError``; `.cancelled` when the task is cancelled.
    static func value<Key: Hashable & Sendable, Value: Sendable>(
        of registry: WorkRegistry<Key, Value>, key: Key, relay: PriorityRelay,
        forward: @escaping @Sendable (WorkEvent<Value>) -> Void = { _ in },
        shared: (@Sendable () -> Void)? = nil,
        start: (SharedWork<Value>) -> Void
    ) async throws(ImageManagerError) -> Value? {
        let box = Box<Value>()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<Value?, ImageManagerError>, Never>) in
                let ready = box.state.withLock { state -> Result<Value?, ImageManagerError>? in
                    if let result = state.result { return result }
                    if state.cancelled { return .failure(.cancelled) }
                    state.continuation = continuation
                    return nil
                }
                if let ready {
                    continuation.resume(returning: ready)
                    return
                }
                let subscription = registry.subscribe(
                    key: key, priority: relay.priority,
                    handler: { event in
                        if case .finished(let result) = event {
                            box.resume(result)
                        } else {
                            forward(event)
                        }
                    }, start: start)
                if subscription.work.isShared { shared?() }
                let relayID = relay.add { subscription.setPriority($0) }
                let cancelled = box.state.withLock { state -> Bool in
                    state.subscription = subscription
                    state.relayID = relayID
                    return state.cancelled
                }
                if cancelled {
                    subscription.cancel()
                    box.resume(.failure(.cancelled))
                }
            }
        } onCancel: {
            let subscription = box.state.withLock { state -> WorkSubscription<Value>? in
                state.cancelled = true
                return state.subscription
            }
            subscription?.cancel()
            box.resume(.failure(.cancelled))
        }
        if let relayID = box.state.withLock({ $0.relayID }) { relay.remove(relayID) }
        return try result.get()
    }
}
