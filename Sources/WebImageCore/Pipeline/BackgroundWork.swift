/// Counts work that outlives the call that started it (stores, revalidations, shared runs)
/// so a program can wait for all of it before exiting.
final class BackgroundWork: Sendable {
    private struct State {
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = TrackedMutex(State())

    var isIdle: Bool { state.withLock { $0.running == 0 } }

    func begin() { state.withLock { $0.running += 1 } }

    func end() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.running -= 1
            guard state.running == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Runs `body` in a new task, counted until it returns.
    func run(_ body: @escaping @Sendable () async -> Void) {
        begin()
        Task {
            await body()
            end()
        }
    }

    /// Returns once nothing is running.
    func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.running == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
