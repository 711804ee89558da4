/// Decode times of one benchmark side, in milliseconds.
public struct Timing: Sendable {
    public private(set) var samples: [Double] = []

    public init() {}

    /// Runs `body` once and records how long it took on the monotonic clock.
    public mutating func measure(_ body: () throws -> Void) rethrows {
        let duration = try ContinuousClock().measure(body)
        let (seconds, attoseconds) = duration.components
        samples.append(Double(seconds) * 1_000 + Double(attoseconds) / 1e15)
    }

    /// The fastest sample.
    public var minimum: Double { samples.min() ?? 0 }

    /// The middle sample (the mean of the two middle ones for an even count).
    public var median: Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// `self`'s time divided by `reference`'s, for a statistic such as ``median``.
    /// A zero reference time (below clock resolution) is treated as one nanosecond.
    public static func ratio(_ value: Double, to reference: Double) -> Double {
        value / max(reference, 1e-6)
    }
}
