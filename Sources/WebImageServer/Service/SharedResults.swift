import WebImageCore

/// Identical requests processed once: the first request for a result key starts the work,
/// later ones for the same key wait for it (the server's coalescing, on top of the image
/// manager's own for downloads and decodes). The work runs in a task of its own, so a
/// waiter that gives up (its request timed out or the client left) does not cancel it for
/// the others; its result is cached when it ends.
final class SharedResults: Sendable {
    private let running = TrackedMutex<[String: Task<ServedImage, any Error>]>([:])

    /// The value of `work` for `key`, shared with every caller asking for `key` while it runs,
    /// and whether this caller joined work already running.
    func value(
        forKey key: String, work: @escaping @Sendable () async throws -> ServedImage
    ) async throws -> (image: ServedImage, joined: Bool) {
        let (task, joined) = running.withLock { running -> (Task<ServedImage, any Error>, Bool) in
            if let task = running[key] { return (task, true) }
            let task = Task {
                defer { _ = self.running.withLock { $0.removeValue(forKey: key) } }
                return try await work()
            }
            running[key] = task
            return (task, false)
        }
        return (try await task.value, joined)
    }
}
