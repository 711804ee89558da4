import FoundationEssentials

/// The bytes that the decodes and transforms running at once in one process may allocate
/// together. Each job reserves what it may allocate before it starts (a decode: its full-size
/// output at most its byte limit; a transform: its ``TransformFootprint``) and gives it back
/// when it ends: a job that does not fit while others hold the budget waits for them; one
/// larger than the whole budget fails at once (`.tooLarge`). What jobs leave behind (decoded
/// images held by callers and caches) is not counted.
///
/// ``shared`` is the process's budget, which ``DecodeOptions`` and ``TransformLimits`` use
/// by default: the larger of 1 GiB and a quarter of physical memory, or the bytes in
/// `WEBIMAGE_MAX_CONCURRENT_BYTES` (read once, at first use).
public final class ConcurrentByteBudget: Sendable {
    /// The environment variable that sets the shared budget, in bytes.
    public static let environmentVariable = "WEBIMAGE_MAX_CONCURRENT_BYTES"
    /// The smallest default: 1 GiB, so one decode at the default byte limit always fits.
    public static let minimumDefaultByteCount = 1 << 30

    /// The process's budget.
    public static let shared = ConcurrentByteBudget(byteCount: defaultByteCount())

    /// The bytes all running jobs may hold together.
    public let byteCount: Int
    /// Guards ``reserved`` and wakes waiting jobs.
    private let condition = ThreadLock()
    /// Bytes held by running jobs; only touched with ``condition`` locked.
    private nonisolated(unsafe) var reserved = 0

    /// A budget of `byteCount` bytes (at least 1).
    public init(byteCount: Int) {
        self.byteCount = max(1, byteCount)
    }

    /// The shared budget's size: `WEBIMAGE_MAX_CONCURRENT_BYTES` when it is a positive number
    /// of bytes, else the larger of ``minimumDefaultByteCount`` and a quarter of physical memory.
    public static func defaultByteCount(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        physicalMemory: UInt64 = ProcessInfo.processInfo.physicalMemory
    ) -> Int {
        if let text = environment[environmentVariable], let bytes = Int(text), bytes > 0 { return bytes }
        return max(minimumDefaultByteCount, Int(clamping: physicalMemory / 4))
    }

    /// Bytes reserved by running jobs now.
    public var reservedByteCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return reserved
    }

    /// Runs `body` holding `bytes` of the budget: waits while other jobs hold too much of it,
    /// and gives the bytes back when `body` returns or throws. 0 bytes run at once.
    /// - Throws: `tooLarge` without running `body` when `bytes` exceeds the whole budget
    ///   (``byteCount``), else what `body` throws.
    public func withReservation<Value, Failure: Error>(
        _ bytes: Int, orThrow tooLarge: @autoclosure () -> Failure, _ body: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        guard bytes > 0 else { return try body() }
        guard bytes <= byteCount else { throw tooLarge() }
        condition.lock()
        while reserved + bytes > byteCount { condition.wait() }
        reserved += bytes
        condition.unlock()
        defer {
            condition.lock()
            reserved -= bytes
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
