import Testing

/// Runs each test it applies to on a thread of its own (``onOwnThread(_:)``), for tests that
/// block while they wait: for a child process (nginx, redis-server, `cc`, `ip`, the CLI), a
/// port, a lock held by another process. On Linux, Swift concurrency and
/// `DispatchQueue.global()` share one thread per core; a test body that blocks one of them
/// stops every other test's async work and the image manager's queued jobs for as long, so
/// other tests resume late and their time bounds measure someone else's wait.
///
/// Test support that blocks checks for it (``expectOwnThreadWhenBlocking(_:)``),
/// so a test that blocks without it fails. Give it to a suite to cover every test in it.
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// A scope for each test case only; a suite and a test function as a whole run as they would.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await onOwnThread(waitingForSlot: function)
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Runs each test on a thread of its own (``OwnThreadTrait``).
    public static var ownThread: Self { Self() }
}

/// Records an issue when the caller, about to block for `what`, runs on one of Swift's shared
/// threads: inside a test (or a task) that is not on a thread of its own (``OwnThreadTrait``,
/// ``onOwnThread(_:)``). The issue points at the test's declaration. Code on a thread or
/// dispatch queue of its own passes, and so does an exit test's body (a process of its own).
public func expectOwnThreadWhenBlocking(_ what: String) {
    // An exit test's body runs in a child process of its own, with no current test.
    guard !isOnOwnThread, withUnsafeCurrentTask(body: { $0 != nil }), let test = Test.current else { return }
    Issue.record(
        "\(what) blocks one of Swift's shared threads: give the test or its suite the .ownThread trait",
        sourceLocation: test.sourceLocation)
}
