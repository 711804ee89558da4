/// What ends a slow transfer, whichever loader runs it: the total deadline
/// (``ImageDownloaderConfiguration/maxTransferTime``) and the low-speed limit (fewer than
/// ``ImageDownloaderConfiguration/minimumBytesPerSecond`` on average over
/// ``ImageDownloaderConfiguration/idleTimeout``). The downloader sends both to the loader and
/// also watches them itself, so a loader that ignores them cannot hold a slot longer; the
/// curl plugin words its errors the same way.
struct TransferLimits: Sendable {
    let maxTime: Duration?
    let minimumBytesPerSecond: UInt32
    let window: Duration

    init(_ configuration: ImageDownloaderConfiguration) {
        maxTime = configuration.maxTransferTime.flatMap { $0 > .zero ? $0 : nil }
        minimumBytesPerSecond = max(1, configuration.minimumBytesPerSecond)
        window = configuration.idleTimeout
    }

    /// The error of a transfer that outlived ``maxTime``.
    var maxTimeError: ImageLoadingError {
        ImageLoadingError(.timedOut, "transfer took longer than \(Self.seconds(maxTime ?? .zero)) s (--max-time)")
    }

    /// The error of a transfer slower than the low-speed limit.
    var lowSpeedError: ImageLoadingError {
        ImageLoadingError(.timedOut, "slower than \(minimumBytesPerSecond) B/s for \(Self.seconds(window)) s")
    }

    /// How often the downloader samples a transfer's bytes: every second, or four times per
    /// window when the window is shorter than 4 seconds.
    var sampleInterval: Duration { min(.seconds(1), window / 4) }

    /// Whole milliseconds as seconds without trailing zeros: "2", "1.5", "0.25".
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = LoadRequestMarshalling.milliseconds(duration)
        let fraction = milliseconds % 1000
        guard fraction != 0 else { return "\(milliseconds / 1000)" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(milliseconds / 1000).\(digits)"
    }
}

/// One running attempt's samples for the low-speed limit, kept in its operation under the
/// downloader's lock.
struct LimitsWatch {
    let attempt: Int
    let start: ContinuousClock.Instant
    /// When the watcher next samples this attempt.
    var nextCheck: ContinuousClock.Instant
    /// Byte counts over at least the last window; the first is the oldest still needed.
    var samples: [(at: ContinuousClock.Instant, bytes: UInt64)]

    init(attempt: Int, start: ContinuousClock.Instant, limits: TransferLimits) {
        self.attempt = attempt
        self.start = start
        samples = [(start, 0)]
        nextCheck = start + limits.sampleInterval
        if let maxTime = limits.maxTime { nextCheck = min(nextCheck, start + maxTime) }
    }

    /// Samples `bytes` at `now`: the limit the attempt breaks, or nil (and ``nextCheck`` moved on).
    mutating func check(bytes: UInt64, at now: ContinuousClock.Instant, limits: TransferLimits) -> ImageLoadingError? {
        if let maxTime = limits.maxTime, now - start >= maxTime { return limits.maxTimeError }
        samples.append((now, bytes))
        while samples.count > 1, now - samples[1].at >= limits.window { samples.removeFirst() }
        let span = now - samples[0].at
        let seconds = Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18
        if span >= limits.window, Double(bytes - samples[0].bytes) < Double(limits.minimumBytesPerSecond) * seconds {
            return limits.lowSpeedError
        }
        nextCheck = now + limits.sampleInterval
        if let maxTime = limits.maxTime { nextCheck = min(nextCheck, start + maxTime) }
        return nil
    }
}

/// The watch of the ``TransferLimits``: one task per downloader samples every running
/// attempt, and runs only while there are some. (A task per attempt, started and cancelled
/// around each transfer, cost more CPU than the transfer of a small file.)
extension ImageDownloader {
    /// Watches attempt `attempt` of `operation` until it ends, failing it with the limit it
    /// breaks first; ``unwatch(_:in:)`` ends the watch when the attempt finishes.
    func watchLimits(of operation: DownloadOperation, attempt: Int) {
        let limits = transferLimits
        guard limits.window > .zero else { return }
        let startWatcher = state.withLock { state -> Bool in
            guard operation.attempt == attempt, operation.phase == .running else { return false }
            operation.limitsWatch = LimitsWatch(attempt: attempt, start: .now, limits: limits)
            state.watched[ObjectIdentifier(operation)] = operation
            guard !state.watcherRunning else { return false }
            state.watcherRunning = true
            return true
        }
        if startWatcher { Task { [self] in await runLimitsWatcher() } }
    }

    /// Ends `operation`'s watch. Call with the lock held (`state` is the lock's state).
    func unwatch(_ operation: DownloadOperation, in state: inout State) {
        guard operation.limitsWatch != nil else { return }
        operation.limitsWatch = nil
        state.watched[ObjectIdentifier(operation)] = nil
    }

    /// Samples each watched attempt when it is due, fails those that break a limit, and
    /// sleeps until the next is due; returns once no attempt is watched. Every attempt's first
    /// check is due one ``TransferLimits/sampleInterval`` (or the total deadline) after it
    /// starts, so one that starts while the watcher sleeps is never due before the watcher wakes.
    private func runLimitsWatcher() async {
        let limits = transferLimits
        let clock = ContinuousClock()
        while true {
            let (broken, wake) = state.withLock {
                state -> ([(DownloadOperation, Int, ImageLoadingError)], ContinuousClock.Instant?) in
                let now = clock.now
                var broken: [(DownloadOperation, Int, ImageLoadingError)] = []
                var wake: ContinuousClock.Instant?
                var ended: [DownloadOperation] = []
                for operation in state.watched.values {
                    guard var watch = operation.limitsWatch, operation.failure == nil else {
                        ended.append(operation)  // already failing: its finish is on the way
                        continue
                    }
                    if watch.nextCheck <= now {
                        if let error = watch.check(bytes: operation.receivedBytes, at: now, limits: limits) {
                            broken.append((operation, watch.attempt, error))
                            ended.append(operation)
                            continue
                        }
                        operation.limitsWatch = watch
                    }
                    wake = min(wake ?? watch.nextCheck, watch.nextCheck)
                }
                for operation in ended { unwatch(operation, in: &state) }
                if wake == nil { state.watcherRunning = false }
                return (broken, wake)
            }
            for (operation, attempt, error) in broken { fail(operation, attempt: attempt, with: error) }
            guard let wake else { return }
            try? await Task.sleep(until: wake, clock: clock)
        }
    }

    /// Fails attempt `attempt` of `operation` with `error`: the loader's task is cancelled and
    /// its completion delivers `error`.
    private func fail(_ operation: DownloadOperation, attempt: Int, with error: ImageLoadingError) {
        let task = state.withLock { _ -> (any LoadTask)? in
            guard operation.attempt == attempt, operation.failure == nil else { return nil }
            operation.failure = error
            return operation.loadTask
        }
        task?.cancel()
    }
}
