import WebImageCore

/// The answer of `GET /health`, kept for ``interval`` so that a load balancer polling it
/// costs one probe write into the result cache per interval, not one per poll. A failed
/// check (503) is kept as long as a passed one. Two polls arriving together when the kept
/// answer has expired may both check.
final class HealthCheckCache: Sendable {
    /// How long an answer is reused, from the end of its check. Default 5 seconds.
    let interval: Duration
    private let kept = TrackedMutex<(checked: ContinuousClock.Instant, answer: ImageServiceResponse)?>(nil)

    init(interval: Duration = .seconds(5)) {
        self.interval = interval
    }

    /// The kept answer when it is younger than ``interval``, else the answer of `check`, kept.
    func answer(checking check: () async -> ImageServiceResponse) async -> ImageServiceResponse {
        if let kept = kept.withLock({ $0 }), ContinuousClock.now - kept.checked < interval { return kept.answer }
        let answer = await check()
        kept.withLock { $0 = (ContinuousClock.now, answer) }
        return answer
    }
}
