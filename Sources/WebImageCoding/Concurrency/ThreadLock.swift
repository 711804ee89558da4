#if canImport(Glibc)
    import Glibc
#endif

/// A lock that a thread may hold across blocking calls, and a condition it may wait on until
/// another thread signals: a POSIX mutex and condition variable.
///
/// It does what Foundation's `NSCondition` does, so the modules of the package need no
/// Foundation beyond `FoundationEssentials` (a process that links Foundation maps and
/// relocates about 6 MiB more; docs/performance.md, "The process floor"). ThreadSanitizer sees
/// its hand-overs, as it intercepts the POSIX calls.
///
/// Use it where a thread must sleep until another changes a state; `TrackedMutex` where it only
/// guards a state.
package final class ThreadLock: @unchecked Sendable {
    // @unchecked: the pthread objects are only touched through the calls below, which are
    // thread-safe by contract; they live at stable heap addresses for the object's lifetime.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// A new lock, unlocked.
    package init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Locks; blocks while another thread holds the lock.
    package func lock() { pthread_mutex_lock(mutex) }

    /// Unlocks; only the thread that locked may call it.
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Unlocks, sleeps until signalled, and locks again before returning. The caller holds the
    /// lock, and checks its state again in a loop: a wake-up may be spurious.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes one waiting thread, if any.
    package func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
