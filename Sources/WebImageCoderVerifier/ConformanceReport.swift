/// What ``CoderVerifier/verify(coder:fixtures:options:)`` found.
public struct ConformanceReport: Sendable, Codable {
    /// The coder's formats, by name.
    public var formats: [String]
    /// Every broken expectation, in the order found; empty when the coder conforms.
    public var failures: [ConformanceFailure]
    /// How many checks ran (one per fixture and ``ConformanceCheck``, one per chunk size
    /// for ``ConformanceCheck/incremental``).
    public var checksRun: Int
    /// Checks left out or cut short because the time limit ran out, as `fixture: check`.
    public var skipped: [String]

    public init(formats: [String], failures: [ConformanceFailure], checksRun: Int, skipped: [String]) {
        self.formats = formats
        self.failures = failures
        self.checksRun = checksRun
        self.skipped = skipped
    }

    /// True when no check failed (some may have been skipped: see ``isComplete``).
    public var passed: Bool { failures.isEmpty }
    /// True when every check ran to its end.
    public var isComplete: Bool { skipped.isEmpty }
}
