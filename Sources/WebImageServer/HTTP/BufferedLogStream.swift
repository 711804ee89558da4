import Dispatch
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// A text stream onto a file descriptor, for a log handler (swift-log's
/// `StreamLogHandler(label:stream:)`), that gathers lines and writes them out together: at
/// most ``flushInterval`` after the first one waiting, at once when ``bufferLimit`` bytes
/// wait, and on ``flush()``. `webimage serve` writes its access log through one.
///
/// One `write` system call per access line cost a quarter of a memory hit's throughput
/// (docs/performance.md): the call itself, and the two event loops queueing on the stream's
/// lock for it. nginx's `access_log … buffer= flush=` makes the same trade. Lines keep their
/// order and are never split; what waits is lost if the process is killed (at most
/// ``flushInterval`` of lines), so call ``flush()`` before exiting.
public final class BufferedLogStream: TextOutputStream, Sendable {
    /// Standard output, flushed every 10 ms or at 64 KiB.
    public static let standardOutput = BufferedLogStream(fileDescriptor: STDOUT_FILENO)

    /// Where the lines go.
    public let fileDescriptor: Int32
    /// The longest a line waits before it is written: 10 ms by default.
    public let flushInterval: Duration
    /// The bytes that may wait before they are written at once: 64 KiB by default.
    public let bufferLimit: Int

    private struct Pending {
        var bytes: [UInt8] = []
        var flushScheduled = false
    }
    private let pending = TrackedMutex(Pending())

    public init(fileDescriptor: Int32, flushInterval: Duration = .milliseconds(10), bufferLimit: Int = 64 << 10) {
        self.fileDescriptor = fileDescriptor
        self.flushInterval = flushInterval
        self.bufferLimit = bufferLimit
    }

    public func write(_ string: String) {
        let scheduleFlush = pending.withLock { pending in
            pending.bytes.append(contentsOf: string.utf8)
            if pending.bytes.count >= bufferLimit {
                writeOut(&pending)
                return false
            }
            guard !pending.flushScheduled else { return false }
            pending.flushScheduled = true
            return true
        }
        if scheduleFlush {
            let (seconds, attoseconds) = flushInterval.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { self.flush() }
        }
    }

    /// Writes out every line waiting, before returning.
    public func flush() {
        pending.withLock { writeOut(&$0) }
    }

    /// Writes `pending`'s bytes, under the lock so that lines keep their order; a failed write
    /// (a closed pipe, a full disk) drops them, as a log must not stop the server.
    private func writeOut(_ pending: inout Pending) {
        pending.flushScheduled = false
        var offset = 0
        pending.bytes.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let written = Glibc.write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
        }
        pending.bytes.removeAll(keepingCapacity: true)
    }
}
