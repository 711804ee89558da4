import CWebImageIsolation
import FoundationEssentials
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Turns what in-process code writes to standard error (libheif, libdav1d or x265 inside a
/// trusted plugin, a plugin's `fprintf(stderr, ...)`) into log lines, so it never lands
/// between the host's own messages.
///
/// Descriptor 2 is pointed, once, at a pipe that a thread of this object reads line by line
/// into a `Logger`; the host's own messages and its log go to ``originalDescriptor``, the
/// standard error the process started with. Isolated plugins need none of this: their
/// worker's output is a pipe of its own (``PluginIsolation``).
///
/// Why once per process rather than around each plugin call: descriptor 2 belongs to the
/// whole process, so redirecting it around one call would also catch (or lose) what other
/// threads write meanwhile, and two calls on two threads would race to restore it. The cost
/// of the permanent redirection is attribution: a line cannot be tied to the plugin that
/// wrote it (isolated plugins' lines can). A process that crashes loses the lines not yet
/// read, its own crash report included; host apps therefore opt in (the `webimage` tool does).
public final class StandardErrorCapture: Sendable {
    /// Standard error as the process started with it: the host's own messages and its log
    /// handler must write here, never to descriptor 2 (which would log what it logs, forever).
    public let originalDescriptor: Int32
    private let readDescriptor: Int32
    private let state = TrackedMutex(State())

    private struct State {
        var logger: Logger?
        var pending: [UInt8] = []
        var restored = false
    }

    private static let installed = TrackedMutex<StandardErrorCapture?>(nil)

    /// Points descriptor 2 at the capture's pipe (once per process; later calls return the
    /// same capture). Lines are kept in the pipe until ``startLogging(to:)``.
    /// - Throws: ``CaptureError`` when the pipe or the descriptors cannot be made.
    public static func install() throws(CaptureError) -> StandardErrorCapture {
        let result = installed.withLock { current -> Result<StandardErrorCapture, CaptureError> in
            if let current { return .success(current) }
            do throws(CaptureError) {
                let capture = try StandardErrorCapture()
                current = capture
                return .success(capture)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Why the capture could not be installed.
    public struct CaptureError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    private init() throws(CaptureError) {
        var fds: [Int32] = [-1, -1]
        guard webimage_isolation_pipe(&fds) == 0 else {
            throw CaptureError(description: "cannot make a pipe for standard error: \(SharedMemoryBlock.lastError)")
        }
        let original = fcntl(2, F_DUPFD_CLOEXEC, 3)
        guard original >= 0, dup2(fds[1], 2) >= 0 else {
            let reason = SharedMemoryBlock.lastError
            close(fds[0])
            close(fds[1])
            if original >= 0 { close(original) }
            throw CaptureError(description: "cannot redirect standard error: \(reason)")
        }
        close(fds[1])
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        originalDescriptor = original
        readDescriptor = fds[0]
    }

    /// Starts logging each captured line to `logger` at warning level (`standard error: ...`),
    /// from a thread of its own.
    public func startLogging(to logger: Logger) {
        let start = state.withLock { state -> Bool in
            defer { state.logger = logger }
            return state.logger == nil
        }
        guard start else { return }
        DetachedThread.start(name: "webimage stderr") { [self] in
            while webimage_isolation_wait_readable(readDescriptor, -1) > 0 {
                if !drain() { break }
            }
        }
    }

    /// Logs every complete line written so far, and the incomplete last one: call it before
    /// writing a message of the host's own, so that what libraries wrote comes first.
    public func flush() {
        _ = drain(includingIncompleteLine: true)
    }

    /// Flushes, then points descriptor 2 back at the original standard error (before the
    /// process exits or `exec`s). Lines written afterwards are not captured.
    public func restore() {
        flush()
        state.withLock { state in
            guard !state.restored else { return }
            state.restored = true
            _ = dup2(originalDescriptor, 2)
        }
    }

    /// Reads what the pipe holds and logs its lines; false once the pipe is closed.
    @discardableResult
    private func drain(includingIncompleteLine: Bool = false) -> Bool {
        state.withLock { state in
            var open = true
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(readDescriptor, $0.baseAddress!, $0.count) }
                if count > 0 {
                    state.pending += chunk[0..<count]
                    continue
                }
                if count == 0 { open = false }
                if count < 0 && errno == EINTR { continue }
                break
            }
            while let newline = state.pending.firstIndex(of: 0x0A) {
                log(state.pending[..<newline], to: state.logger)
                state.pending.removeSubrange(...newline)
            }
            if includingIncompleteLine && !state.pending.isEmpty {
                log(state.pending[...], to: state.logger)
                state.pending = []
            }
            return open
        }
    }

    private func log(_ line: ArraySlice<UInt8>, to logger: Logger?) {
        let text = String(decoding: line, as: UTF8.self)
        guard !text.isEmpty else { return }
        logger?.warning("standard error: \(text)")
    }
}

/// A `TextOutputStream` that writes to a file descriptor, for log handlers that must write
/// to ``StandardErrorCapture/originalDescriptor``.
public struct DescriptorOutputStream: TextOutputStream, Sendable {
    public let descriptor: Int32

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes all of `string`'s UTF-8; a failed write (a closed pipe) drops the rest.
    public mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes all of `bytes`; a failed write (a closed pipe) drops the rest.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
