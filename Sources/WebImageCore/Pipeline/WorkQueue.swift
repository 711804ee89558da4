import Dispatch

/// Runs jobs off the caller's thread, at most ``width`` at once, higher priority first, then
/// in order of arrival. A queued job's priority can change and it can be removed before it runs.
final class WorkQueue: Sendable {
    private struct State {
        var queued = StartOrderQueue<@Sendable () -> Void>()
        var running = 0
        var nextID: UInt64 = 0
    }

    /// Most jobs running at once.
    let width: Int
    private let label: String
    private let state = TrackedMutex(State())

    init(label: String, width: Int) {
        self.label = label
        self.width = max(1, width)
    }

    /// Queues `body`; returns the job's ticket.
    @discardableResult
    func enqueue(priority: ImagePriority, _ body: @escaping @Sendable () -> Void) -> WorkQueueTicket {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.queued.append(body, sequence: state.nextID, priority: priority)
            return state.nextID
        }
        pump()
        return WorkQueueTicket(queue: self, id: id)
    }

    /// Changes the priority of a queued job.
    func setPriority(_ priority: ImagePriority, of id: UInt64) {
        state.withLock { $0.queued.setPriority(priority, of: id) }
    }

    /// Removes a queued job; true when it had not started.
    @discardableResult
    func remove(_ id: UInt64) -> Bool {
        state.withLock { $0.queued.remove(id) != nil }
    }

    /// Jobs running and jobs waiting, now.
    var load: (running: Int, queued: Int) { state.withLock { ($0.running, $0.queued.count) } }

    /// The priority of the job that starts next, now; nil when none waits.
    var nextPriority: ImagePriority? { state.withLock { $0.queued.peekNext()?.priority } }

    /// Starts queued jobs while fewer than ``width`` run, one at a time (no list of them is built).
    private func pump() {
        while let job = state.withLock({ state -> (@Sendable () -> Void)? in
            guard state.running < width, let job = state.queued.takeNext() else { return nil }
            state.running += 1
            return job
        }) {
            // One QoS for every job: the order comes from this queue's priorities, and a busy
            // process must not starve low-priority threads.
            DispatchQueue.global().async { [self] in
                job()
                state.withLock { $0.running -= 1 }
                pump()
            }
        }
    }
}

/// A queued job's handle.
struct WorkQueueTicket: Sendable {
    let queue: WorkQueue
    let id: UInt64

    func setPriority(_ priority: ImagePriority) { queue.setPriority(priority, of: id) }

    /// Removes the job if it has not started; true when removed.
    @discardableResult
    func cancel() -> Bool { queue.remove(id) }
}
