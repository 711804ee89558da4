import CWebImagePlugin

/// The moment a decode must stop: after it, coders and the frame loops of
/// ``CodersManager`` fail with `.timedOut` instead of going on.
///
/// Measured on `CLOCK_MONOTONIC` in nanoseconds, the clock of the plugin ABI's
/// `webimage_decode_options.deadline_ns`, so one deadline means the same moment in the host
/// and in every plugin (and in every process of the machine).
public struct DecodeDeadline: Sendable, Hashable, Comparable {
    /// `CLOCK_MONOTONIC` nanoseconds.
    public let monotonicNanoseconds: UInt64
    /// How long the decode was given, for messages; nil when unknown (a deadline that came
    /// through the plugin ABI).
    public let timeLimit: Duration?

    public init(monotonicNanoseconds: UInt64, timeLimit: Duration? = nil) {
        self.monotonicNanoseconds = monotonicNanoseconds
        self.timeLimit = timeLimit
    }

    /// The deadline `timeLimit` from now.
    public static func after(_ timeLimit: Duration) -> DecodeDeadline {
        let (seconds, attoseconds) = max(timeLimit, .zero).components
        let nanoseconds = UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
        return DecodeDeadline(monotonicNanoseconds: webimage_monotonic_ns() &+ nanoseconds, timeLimit: timeLimit)
    }

    /// True once the deadline has passed.
    public var hasPassed: Bool { webimage_monotonic_ns() >= monotonicNanoseconds }

    /// Throws `.timedOut` once the deadline has passed; `progress` says where the work stopped
    /// ("at frame 3 of 100").
    /// - Throws: ``ImageCodingError`` `.timedOut`.
    public func check(_ progress: String = "") throws(ImageCodingError) {
        guard hasPassed else { return }
        throw ImageCodingError.deadlinePassed(timeLimit, progress: progress)
    }

    public static func < (lhs: DecodeDeadline, rhs: DecodeDeadline) -> Bool {
        lhs.monotonicNanoseconds < rhs.monotonicNanoseconds
    }
}

extension ImageCodingError {
    /// The error for a decode stopped by its deadline of `timeLimit`.
    public static func deadlinePassed(_ timeLimit: Duration?, progress: String = "") -> ImageCodingError {
        let place = progress.isEmpty ? "" : " \(progress)"
        guard let timeLimit else { return ImageCodingError(.timedOut, "decode timed out\(place): the deadline passed") }
        let milliseconds =
            timeLimit.components.seconds * 1000 + timeLimit.components.attoseconds / 1_000_000_000_000_000
        let limit = milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
        return ImageCodingError(.timedOut, "decode timed out\(place): the time limit of \(limit) passed")
    }
}
