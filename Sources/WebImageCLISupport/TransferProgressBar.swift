import FoundationEssentials
import WebImageCore

/// The one-line progress bar of `fetch`, `get` and `prefetch` on standard error: items ended
/// of all, bytes received (of the total expected, when it can be estimated), the average rate
/// since the first byte and the time left; redrawn every 250 ms by a task of its own, so the
/// loader threads that report bytes never wait for the terminal.
///
/// Bytes come from the loader's events (``MeteredLoader``), items from the command
/// (``itemEnded(failed:)`` or ``show(_:)``). ``finish()`` prints the closing line.
package final class TransferProgressBar: Sendable {
    /// What one transfer reported so far.
    package final class Transfer: Sendable {
        fileprivate let remaining = TrackedMutex<UInt64>(0)
    }

    private struct State {
        var ended = 0
        var failed = 0
        var skipped = 0
        var receivedBytes: UInt64 = 0
        /// Bytes still to come of the running transfers that sent a Content-Length.
        var outstandingBytes: UInt64 = 0
        var runningTransfers = 0
        /// Transfers that sent a Content-Length, and the sum of those lengths: the average
        /// size of an item not started yet.
        var sizedTransfers = 0
        var sizedBytes: UInt64 = 0
        var firstByte: ContinuousClock.Instant?
    }

    /// How often the line is redrawn: 250 ms.
    package static let interval: Duration = .milliseconds(250)

    private let total: Int
    private let noun: String
    private let started = ContinuousClock.now
    private let state = TrackedMutex(State())
    /// Whether ``finish()`` drew the closing line, and the length of the last line drawn (a
    /// shorter one is padded with spaces to cover it); held while a line is written.
    private let drawn = TrackedMutex((closed: false, length: 0))

    /// True once the redrawing task started.
    private let drawing = TrackedMutex(false)

    /// A bar of `total` items, called `noun` ("files", "images"), drawn from the first
    /// transfer or item on (so a command that fails before any leaves no bar before its error).
    package init(total: Int, noun: String) {
        self.total = total
        self.noun = noun
    }

    /// Starts the task that redraws the line every ``interval`` until ``finish()``, once.
    private func startDrawing() {
        let first = drawing.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        Task.detached { [weak self] in
            while true {
                try? await Task.sleep(for: Self.interval)
                guard let self, self.draw(finished: false) else { return }
            }
        }
    }

    /// A transfer started; its response, bytes and end are reported on the returned value.
    package func transferStarted() -> Transfer {
        startDrawing()
        state.withLock { $0.runningTransfers += 1 }
        return Transfer()
    }

    /// The transfer's response head arrived, with its Content-Length when there is one.
    package func responded(_ transfer: Transfer, expectedBytes: UInt64?) {
        guard let expectedBytes else { return }
        transfer.remaining.withLock { $0 = expectedBytes }
        state.withLock { state in
            state.outstandingBytes += expectedBytes
            state.sizedTransfers += 1
            state.sizedBytes += expectedBytes
        }
    }

    /// `count` body bytes of the transfer arrived.
    package func received(_ count: Int, of transfer: Transfer) {
        let counted = transfer.remaining.withLock { remaining -> UInt64 in
            let counted = min(remaining, UInt64(count))
            remaining -= counted
            return counted
        }
        state.withLock { state in
            if state.firstByte == nil { state.firstByte = .now }
            state.receivedBytes += UInt64(count)
            state.outstandingBytes -= counted
        }
    }

    /// The transfer ended (completed, failed or cancelled): what it did not bring is no longer expected.
    package func ended(_ transfer: Transfer) {
        let uncounted = transfer.remaining.withLock { remaining in
            defer { remaining = 0 }
            return remaining
        }
        state.withLock { state in
            state.runningTransfers -= 1
            state.outstandingBytes -= uncounted
        }
    }

    /// One item ended.
    package func itemEnded(failed: Bool) {
        startDrawing()
        state.withLock { state in
            state.ended += 1
            if failed { state.failed += 1 }
        }
    }

    /// The prefetcher's counts.
    package func show(_ progress: PrefetchProgress) {
        startDrawing()
        state.withLock { state in
            state.ended = progress.finished
            state.failed = progress.failed
            state.skipped = progress.skipped
        }
    }

    /// Stops redrawing and prints the closing line (the bar as it ended, with the time taken)
    /// and a line break.
    package func finish() {
        draw(finished: true)
    }

    /// Draws the line unless the bar is closed; `finished` draws the closing line and closes it.
    /// - Returns: false when the bar was closed already.
    @discardableResult
    private func draw(finished: Bool) -> Bool {
        drawn.withLock { drawn in
            guard !drawn.closed else { return false }
            let line = line(finished: finished)
            let padding = String(repeating: " ", count: max(0, drawn.length - line.count))
            drawn = (finished, line.count)
            Diagnostics.writeToStandardError("\r" + line + padding + (finished ? "\n" : ""))
            return true
        }
    }

    private func line(finished: Bool) -> String {
        let state = state.withLock { $0 }
        let now = ContinuousClock.now
        let width = 30
        let filled = total == 0 ? width : width * min(state.ended, total) / total
        var line = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
        line += "\(state.ended)/\(total) \(noun), " + Self.bytes(state.receivedBytes)
        let rate = state.firstByte.map { Double(state.receivedBytes) / max(Self.seconds(now - $0), 0.001) } ?? 0
        if finished {
            line += ", " + Self.bytes(UInt64(rate)) + "/s in " + Self.clock(Self.seconds(now - started))
        } else {
            let remaining = remainingBytes(state)
            if let remaining { line += " of " + Self.bytes(state.receivedBytes + remaining) }
            line += ", " + Self.bytes(UInt64(rate)) + "/s"
            if let remaining, rate > 0 { line += ", " + Self.clock(Double(remaining) / rate) + " left" }
        }
        if state.skipped > 0 { line += ", \(state.skipped) skipped" }
        if state.failed > 0 { line += ", \(state.failed) failed" }
        return line
    }

    /// The bytes still to come: those of the running transfers plus, for the items not started
    /// yet, the average size of the transfers so far; nil before any transfer sent a length.
    private func remainingBytes(_ state: State) -> UInt64? {
        guard state.sizedTransfers > 0 else { return nil }
        let waiting = max(0, total - state.ended - state.runningTransfers)
        return state.outstandingBytes + UInt64(waiting) * (state.sizedBytes / UInt64(state.sizedTransfers))
    }

    /// `1234567` as `1.2 MB`: B below 1,000, then kB, MB, GB (powers of 1,000).
    package static func bytes(_ count: UInt64) -> String {
        guard count >= 1000 else { return "\(count) B" }
        var value = Double(count) / 1000
        for unit in ["kB", "MB", "GB"] {
            if value < 1000 || unit == "GB" { return String(printf: "%.1f \(unit)", value) }
            value /= 1000
        }
        return ""
    }

    /// Seconds as `m:ss` (`h:mm:ss` from an hour).
    package static func clock(_ seconds: Double) -> String {
        let whole = Int(min(seconds, 359_999).rounded(.up))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0
            ? String(printf: "%ld:%02ld:%02ld", hours, minutes, rest) : String(printf: "%ld:%02ld", minutes, rest)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
