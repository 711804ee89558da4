/// A token bucket that limits how often something starts: it holds at most `burst` tokens
/// and gains `rate` per second; each start takes one. Not thread-safe on its own (the
/// downloader keeps it under its lock).
public struct TokenBucket: Sendable {
    /// Tokens per second and the most that can be saved up.
    public struct Rate: Sendable, Equatable {
        public var perSecond: Double
        public var burst: Int

        public init(perSecond: Double, burst: Int) {
            self.perSecond = perSecond
            self.burst = burst
        }

        /// Nuke's default: 80 starts per second, bursts of 25.
        public static let nuke = Rate(perSecond: 80, burst: 25)
    }

    public let rate: Rate
    private var tokens: Double
    private var updated: ContinuousClock.Instant

    public init(rate: Rate, now: ContinuousClock.Instant = .now) {
        self.rate = rate
        self.tokens = Double(rate.burst)
        self.updated = now
    }

    /// Takes a token when there is one; else returns how long until there is.
    public mutating func take(now: ContinuousClock.Instant = .now) -> Duration? {
        let elapsed = now - updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(Double(rate.burst), tokens + seconds * rate.perSecond)
        updated = now
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return .nanoseconds(Int64(((1 - tokens) / rate.perSecond * 1e9).rounded(.up)))
    }
}
