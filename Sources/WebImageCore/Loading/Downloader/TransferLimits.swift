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

/// Each attempt's watch of its ``TransferLimits``.
extension ImageDownloader {
    /// Watches attempt `attempt` of `operation` until it ends, failing it with the limit it
    /// breaks first. The watch is cancelled when the attempt finishes.
    func watchLimits(of operation: DownloadOperation, attempt: Int) {
        let limits = TransferLimits(configuration)
        guard limits.window > .zero else { return }
        let watch = Task { [self] in
            let clock = ContinuousClock()
            let start = clock.now
            // Byte counts over at least the last window; the first is the oldest still needed.
            var samples: [(at: ContinuousClock.Instant, bytes: UInt64)] = [(start, 0)]
            while true {
                var wake = clock.now + limits.sampleInterval
                if let maxTime = limits.maxTime { wake = min(wake, start + maxTime) }
                do { try await Task.sleep(until: wake, clock: clock) } catch { return }
                let now = clock.now
                let bytes = state.withLock { _ -> UInt64? in
                    guard operation.attempt == attempt, operation.phase == .running, operation.failure == nil
                    else { return nil }
                    return operation.receivedBytes
                }
                guard let bytes else { return }
                if let maxTime = limits.maxTime, now - start >= maxTime {
                    return fail(operation, attempt: attempt, with: limits.maxTimeError)
                }
                samples.append((now, bytes))
                while samples.count > 1, now - samples[1].at >= limits.window { samples.removeFirst() }
                let span = now - samples[0].at
                let seconds = Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18
                if span >= limits.window,
                    Double(bytes - samples[0].bytes) < Double(limits.minimumBytesPerSecond) * seconds
                {
                    return fail(operation, attempt: attempt, with: limits.lowSpeedError)
                }
            }
        }
        let ended = state.withLock { _ -> Bool in
            guard operation.attempt == attempt, operation.phase == .running else { return true }
            operation.limitsWatch = watch
            return false
        }
        if ended { watch.cancel() }
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
