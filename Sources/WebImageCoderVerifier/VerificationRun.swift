import WebImageCore

/// The bookkeeping of one ``CoderVerifier/verify(coder:fixtures:options:)`` call: the
/// deadline, the failures (capped per fixture and check), the checks skipped, and the stop
/// when the coder's plugin is disabled (after its worker died too often every later call
/// fails the same way, which says nothing about the files).
final class VerificationRun {
    let coder: any ImageCoder
    let options: VerifierOptions
    private let deadline: ContinuousClock.Instant
    private var failures: [ConformanceFailure] = []
    private var failureCounts: [String: Int] = [:]
    private var checksRun = 0
    private var skipped: [String] = []
    /// Why the checks stopped early: the disabled plugin's message; nil while they go on.
    private var disabledReason: String?
    /// Checks not run after the plugin was disabled.
    private var checksNotRun = 0
    /// The check running, for the failure that reports the disabling.
    private var current: (check: ConformanceCheck, fixture: String)?

    init(coder: any ImageCoder, options: VerifierOptions) {
        self.coder = coder
        self.options = options
        deadline = .now + options.timeLimit
    }

    /// True until the time limit has passed.
    var hasTimeLeft: Bool { ContinuousClock.now < deadline }

    /// Runs `body` as one check of `fixture`, or lists it as skipped when time is up.
    /// Once the plugin is disabled, no check runs.
    func run(_ check: ConformanceCheck, fixture: String, label: String? = nil, _ body: () -> Void) {
        guard disabledReason == nil else {
            checksNotRun += 1
            return
        }
        guard hasTimeLeft else {
            skipped.append("\(fixture): \(label ?? check.rawValue)")
            return
        }
        checksRun += 1
        current = (check, fixture)
        body()
        current = nil
    }

    /// ``ErrorExpectation/problem(with:allowed:)``, noting a disabled plugin.
    func problem(with error: any Error, allowed: Set<ImageCodingError.Kind>) -> String? {
        noteDisabling(error)
        return ErrorExpectation.problem(with: error, allowed: allowed)
    }

    /// ``ErrorExpectation/unexpected(_:)``, noting a disabled plugin.
    func unexpected(_ error: any Error) -> String {
        noteDisabling(error)
        return ErrorExpectation.unexpected(error)
    }

    /// True when the coder's plugin is disabled. `canDecode` cannot tell (a disabled plugin
    /// recognises nothing), so a `false` from it is asked again with a probe of `bytes`, whose
    /// error says so; the disabling is then noted as for any other call.
    func pluginIsDisabled(probing bytes: [UInt8]) -> Bool {
        do {
            _ = try bytes.withUnsafeBytes { try coder.probe($0) }
        } catch {
            noteDisabling(error)
        }
        return disabledReason != nil
    }

    /// The first `.pluginDisabled` error is the run's last failure: it is recorded against the
    /// check that saw it, and every later failure and check is left out.
    private func noteDisabling(_ error: any Error) {
        guard disabledReason == nil, let error = error as? ImageCodingError, error.kind == .pluginDisabled,
            let current
        else { return }
        failures.append(
            ConformanceFailure(
                check: current.check, fixture: current.fixture,
                message: "the plugin was disabled (\(error.message)); no further checks run"))
        disabledReason = error.message
    }

    /// Notes that `check` of `fixture` stopped early for lack of time, after `progress`.
    func cutShort(_ check: ConformanceCheck, fixture: String, progress: String) {
        skipped.append("\(fixture): \(check.rawValue) (stopped \(progress))")
    }

    /// Records a failure; beyond ``VerifierOptions/failuresPerCheck`` for the same fixture and
    /// check only the count is kept.
    func fail(_ check: ConformanceCheck, fixture: String, _ message: String) {
        guard disabledReason == nil else { return }
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
        let notRun = checksNotRun > 0 ? ["\(checksNotRun) more checks: the plugin was disabled"] : []
        return ConformanceReport(
            formats: coder.formats.map(\.name), failures: all, checksRun: checksRun, skipped: skipped + notRun)
    }
}
