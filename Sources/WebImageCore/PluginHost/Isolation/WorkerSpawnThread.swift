import Dispatch

/// The thread every plugin worker is started from, which lives as long as the process.
///
/// A worker asks the kernel to kill it when its parent dies (`PR_SET_PDEATHSIG`), and for the
/// kernel that parent is the *thread* that created it, not the process. A worker started from
/// a Dispatch or Swift concurrency thread was killed with SIGKILL as soon as that thread was
/// retired after idling, and the next call into the plugin failed as a crash of the plugin.
final class WorkerSpawnThread: @unchecked Sendable {
    // @unchecked: `jobs` is only touched with `condition` locked.
    static let shared = WorkerSpawnThread()

    private let condition = ThreadLock()
    private var jobs: [() -> Void] = []

    private init() {
        DetachedThread.start(name: "webimage-spawn") { [self] in runJobs() }
    }

    /// Runs `body` on the spawn thread and returns what it returns; the caller waits.
    func run<T>(_ body: @escaping () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        var result: T?
        condition.lock()
        jobs.append {
            result = body()
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        return result!
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
