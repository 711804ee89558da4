import Foundation

/// Runs `body` on a thread of its own and returns what it returns, for tests whose work blocks
/// (waiting for a child process, a plugin worker, a timeout): on Linux, Swift concurrency and
/// `DispatchQueue.global()` share the same few threads (as many as there are cores), so a
/// test that blocks one of them for seconds stalls every other test's tasks and the image
/// manager's queued decodes for as long.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
