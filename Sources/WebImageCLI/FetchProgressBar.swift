import Foundation
import WebImageCLISupport
import WebImageCore

/// A one-line progress bar on standard error: files done of total, bytes and rate,
/// redrawn at most ten times a second.
final class FetchProgressBar: Sendable {
    private struct State {
        var done = 0
        var failed = 0
        var bytes = 0
        var lastDraw: ContinuousClock.Instant?
    }

    private let total: Int
    private let started = ContinuousClock.now
    private let state = TrackedMutex(State())

    init(total: Int) {
        self.total = total
    }

    func add(bytes: Int, failed: Bool) {
        let line = state.withLock { state -> String? in
            state.done += 1
            state.bytes += bytes
            if failed { state.failed += 1 }
            let now = ContinuousClock.now
            if let last = state.lastDraw, now - last < .milliseconds(100), state.done < total { return nil }
            state.lastDraw = now
            return render(state)
        }
        if let line { Diagnostics.writeToStandardError("\r" + line) }
    }

    func finish() {
        let line = state.withLock { render($0) }
        Diagnostics.writeToStandardError("\r" + line + "\n")
    }

    private func render(_ state: State) -> String {
        let elapsed = ContinuousClock.now - started
        let seconds = max(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, 0.001)
        let width = 30
        let filled = total == 0 ? width : width * state.done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let megabytes = Double(state.bytes) / 1_000_000
        let failures = state.failed > 0 ? ", \(state.failed) failed" : ""
        return "[\(bar)] \(state.done)/\(total) files, "
            + String(format: "%.1f MB, %.1f MB/s", megabytes, megabytes / seconds) + failures
    }
}
