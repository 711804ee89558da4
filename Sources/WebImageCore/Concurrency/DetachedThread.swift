import CWebImageIsolation

#if canImport(Glibc)
    import Glibc
#endif

/// A thread of its own for work that blocks for the life of the process (a loop waiting on a
/// descriptor or a condition), which must not hold a thread of Swift concurrency or Dispatch.
///
/// Foundation's `Thread` without Foundation: a detached POSIX thread with a name.
package enum DetachedThread {
    /// Starts `body` on a new detached thread named `name` (the kernel keeps its first 15
    /// bytes, which `top -H` and gdb show).
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
                _ = webimage_isolation_name_thread(start.name)
                start.body()
                return nil
            }, box)
        precondition(status == 0, "pthread_create failed (\(status))")
        pthread_detach(thread)
    }

    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
