/// When and how soon a failed download is tried again: network errors and timeouts,
/// 5xx, and 429 (honouring `Retry-After`); never after a cancellation or another 4xx.
public struct RetryPolicy: Sendable, Equatable {
    /// Tries after the first; default 0.
    public var maxRetries: Int
    /// The wait before the first retry, doubled for each next one; default 0.5 seconds.
    public var baseDelay: Duration
    /// The longest wait, also for `Retry-After`; default 30 seconds.
    public var maxDelay: Duration

    public init(maxRetries: Int = 0, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30)) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The wait before retry number `attempt` (0-based) after `error`, or nil for no retry.
    public func delay(after error: ImageLoadingError, attempt: Int) -> Duration? {
        guard attempt < maxRetries else { return nil }
        switch error.kind {
        case .networkError, .timedOut:
            break
        case .badStatus:
            guard let status = error.statusCode, status == 429 || (500..<600).contains(status) else { return nil }
            if status == 429, let retryAfter = error.headers?["Retry-After"].flatMap({ Int($0.trimmingWhitespace) }) {
                return min(.seconds(max(retryAfter, 0)), maxDelay)
            }
        default:
            return nil
        }
        let factor = 1 << min(attempt, 20)
        return min(baseDelay * factor, maxDelay)
    }
}
