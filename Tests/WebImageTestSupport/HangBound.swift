import Foundation

/// The upper bounds of the tests' hang checks (waits that end as soon as what they wait for
/// happens, and fail only when it never does), scaled for slow builds.
///
/// `WEBIMAGE_TEST_TIME_SCALE` (a number of at least 1; default 1) multiplies every bound.
/// `make tsan` sets it to 5: ThreadSanitizer runs the suites 5 to 10 times slower, and on 2
/// cores two slow synchronous tests hold both threads of the cooperative pool that the async
/// tests (the image manager's tasks among them) share, for minutes. No test asserts a duration
/// with it.
public enum HangBound {
    /// The factor from `WEBIMAGE_TEST_TIME_SCALE`; 1 when it is unset or not a number of at least 1.
    public static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["WEBIMAGE_TEST_TIME_SCALE"],
            let value = Double(text), value >= 1
        else { return 1 }
        return value
    }()

    /// `bound` times ``scale``.
    public static func scaled(_ bound: Duration) -> Duration { bound * scale }

    /// Runs `body` and cancels it once `bound` (times ``scale``) has passed, so a hang ends as
    /// `body`'s answer to the cancellation instead of stalling the test.
    public static func cancelling<Value: Sendable>(
        after bound: Duration, _ body: @escaping @Sendable () async -> Value
    ) async -> Value {
        let task = Task { await body() }
        let timer = Task {
            try? await Task.sleep(for: scaled(bound))
            task.cancel()
        }
        let value = await task.value
        timer.cancel()
        return value
    }
}
