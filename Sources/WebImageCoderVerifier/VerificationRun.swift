import WebImageCore

/// The bookkeeping of one ``CoderVerifier/verify(coder:fixtures:options:)`` call: the
/// deadline, the failures (capped per fixture and check) and the checks skipped.
final class VerificationRun {
    let coder: any ImageCoder
    let options: VerifierOptions
    private let deadline: ContinuousClock.Instant
    private var failures: [ConformanceFailure] = []
    private var failureCounts: [String: Int] = [:]
    private var checksRun = 0
    private var skipped: [String] = []

    init(coder: any ImageCoder, options: VerifierOptions) {
        self.coder = coder
        self.options = options
        deadline = .now + options.timeLimit
    }

    /// True until the time limit has passed.
    var hasTimeLeft: Bool { ContinuousClock.now < deadline }

    /// Runs `body` as one check of `fixture`, or lists it as skipped when time is up.
    func run(_ check: ConformanceCheck, fixture: String, label: String? = nil, _ body: () -> Void) {
        guard hasTimeLeft else {
            skipped.append("\(fixture): \(label ?? check.rawValue)")
            return
        }
        checksRun += 1
        body()
    }

    /// Notes that `check` of `fixture` stopped early for lack of time, after `progress`.
    func cutShort(_ check: ConformanceCheck, fixture: String, progress: String) {
        skipped.append("\(fixture): \(check.rawValue) (stopped \(progress))")
    }

    /// Records a failure; beyond ``VerifierOptions/failuresPerCheck`` for the same fixture and
    /// check only the count is kept.
    func fail(_ check: ConformanceCheck, fixture: String, _ message: String) {
        let key = "\(fixture)\u{0}\(check.rawValue)"
        let count = failureCounts[key, default: 0] + 1
        failureCounts[key] = count
        if count <= options.failuresPerCheck {
            failures.append(ConformanceFailure(check: check, fixture: fixture, message: message))
        }
    }

    /// Everything recorded so far, with one summary failure per capped fixture and check.
    var report: ConformanceReport {
        var all = failures
        for (key, count) in failureCounts.sorted(by: { $0.key < $1.key }) where count > options.failuresPerCheck {
            let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, let check = ConformanceCheck(rawValue: parts[1]) else { continue }
            all.append(
                ConformanceFailure(
                    check: check, fixture: parts[0],
                    message: "\(count - options.failuresPerCheck) more failures of this check"))
        }
        return ConformanceReport(
            formats: coder.formats.map(\.name), failures: all, checksRun: checksRun, skipped: skipped)
    }
}
