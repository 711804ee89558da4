import Foundation

/// Whether the calling code runs on a thread ``onOwnThread(_:)`` made.
public var isOnOwnThread: Bool { Thread.current.threadDictionary[ownThreadMark] != nil }

private let ownThreadMark = "webimage.test.own-thread"

/// Runs `body` on a thread of its own and returns what it returns, for tests whose work blocks
/// (waiting for a child process, a plugin worker, a timeout): on Linux, Swift concurrency and
/// `DispatchQueue.global()` share the same few threads (as many as there are cores), so a
/// test that blocks one of them for seconds stalls every other test's tasks and the image
/// manager's queued decodes for as long.
///
/// `body` runs inside the calling task (on a task executor whose one thread is made for this
/// call), so it sees the task's task-local values: an `#expect` that fails in it is recorded
/// against the test that called, not an unknown one.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    let executor = OwnThreadExecutor()
    defer { executor.finish() }
    return try await withTaskExecutorPreference(executor) { try await runOnPreferredExecutor(body) }
}

/// Runs the async `body` with a thread of its own as its task's preferred executor, once one
/// of ``ownThreadSlots`` is free: ``OwnThreadTrait``'s scope for each test.
func onOwnThread(waitingForSlot body: @Sendable () async throws -> Void) async throws {
    let executor = OwnThreadExecutor()
    defer { executor.finish() }
    try await withTaskExecutorPreference(executor) {
        try await runOnPreferredExecutor { ownThreadSlots.wait() }
        defer { ownThreadSlots.signal() }
        try await body()
    }
}

/// How many tests with ``OwnThreadTrait`` run at once: twice the cores. Before the trait such
/// tests held the cooperative pool's threads (one per core) while they waited for child
/// processes; more at once would stretch the time bounds of tests written for that.
let ownThreadSlots = DispatchSemaphore(value: 2 * ProcessInfo.processInfo.activeProcessorCount)

/// `body`, called from a nonisolated async function, so it runs on the task's preferred executor.
@concurrent
private func runOnPreferredExecutor<T: Sendable>(_ body: @Sendable () throws -> T) async throws -> T {
    try body()
}

/// A task executor with one thread of its own, which runs the jobs given to it in order until
/// ``finish()``; a job given after that runs on a new thread of its own.
private final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    /// Guarded by `condition`.
    private var finished = false

    init() {
        Thread { [self] in
            Thread.current.threadDictionary[ownThreadMark] = true
            runJobs()
        }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        if finished {
            condition.unlock()
            let executor = asUnownedTaskExecutor()
            Thread {
                Thread.current.threadDictionary[ownThreadMark] = true
                job.runSynchronously(on: executor)
            }.start()
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once its jobs are run.
    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
