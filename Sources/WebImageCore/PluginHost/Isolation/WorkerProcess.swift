import CWebImageIsolation
import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// One running plugin worker: the child process, the host's end of its socket, and the
/// thread that turns the child's standard output and error into log lines.
final class WorkerProcess: @unchecked Sendable {
    // @unchecked: `pid` and `channel` are constants; `exitDescription` is only touched by the
    // supervisor, which serialises every use of a worker.
    let pid: pid_t
    let channel: WorkerChannel
    /// Blocks this worker has been sent the descriptor of, so it has them mapped.
    var knownBlocks = Set<UInt64>()
    /// Blocks the worker's plugin allocated and still holds, by id.
    var lentBlocks: [UInt64: SharedMemoryBlock] = [:]
    private var reaped = false
    /// Signalled once the output thread has logged the worker's last line.
    private let outputFinished = DispatchSemaphore(value: 0)

    /// How a worker ended.
    enum Ending: Equatable {
        case signal(String)
        case exit(Int32)

        /// `(SIGSEGV)`-style text for messages.
        var description: String {
            switch self {
            case .signal(let name): name
            case .exit(let status): "exit status \(status)"
            }
        }
    }

    /// Starts `executable` with the worker's socket and a pipe for its output, which a thread
    /// reads into `logger` line by line, each line prefixed with `plugin 'name':`.
    /// - Throws: ``WorkerChannel/Broken`` when the process cannot be started.
    init(executable: String, pluginName: String, logger: Logger) throws(WorkerChannel.Broken) {
        var sockets: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard webimage_isolation_socketpair(&sockets) == 0 else {
            throw WorkerChannel.Broken(reason: "socketpair failed (\(SharedMemoryBlock.lastError))")
        }
        guard webimage_isolation_pipe(&output) == 0 else {
            close(sockets[0])
            close(sockets[1])
            throw WorkerChannel.Broken(reason: "pipe failed (\(SharedMemoryBlock.lastError))")
        }
        let arguments = [executable, "--parent", String(getpid()), "--plugin", pluginName]
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        let child = webimage_isolation_spawn(executable, &cArguments, sockets[1], output[1])
        let spawnError = SharedMemoryBlock.lastError
        close(sockets[1])
        close(output[1])
        guard child > 0 else {
            close(sockets[0])
            close(output[0])
            throw WorkerChannel.Broken(reason: "cannot start the plugin worker \(executable): \(spawnError)")
        }
        pid = child
        channel = WorkerChannel(socket: sockets[0])
        Self.forwardOutput(
            of: output[0], pluginName: pluginName, pid: child, logger: logger, finished: outputFinished)
    }

    deinit {
        close(channel.socket)
        if !reaped {
            Glibc.kill(pid, SIGKILL)
            _ = reap(waitingUpTo: .seconds(5))
        }
    }

    /// Kills the worker (a call overran its deadline, or the host gave up on it) and reaps it.
    func terminate() {
        guard !reaped else { return }
        Glibc.kill(pid, SIGKILL)
        _ = reap(waitingUpTo: .seconds(5))
    }

    /// Reaps the worker after its socket closed: waits for it to end (it is exiting), at most
    /// `limit`, then kills it. Returns how it ended.
    func reap(waitingUpTo limit: Duration) -> Ending {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR {
                reaped = true
                return .exit(-1)
            }
            if clock.now >= deadline {
                Glibc.kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                break
            }
            usleep(1_000)
        }
        reaped = true
        if status & 0x7F != 0 {
            var name = [CChar](repeating: 0, count: 32)
            return .signal(String(cString: webimage_isolation_signal_name(status & 0x7F, &name, name.count)))
        }
        return .exit((status >> 8) & 0xFF)
    }

    /// Waits (at most `limit`) until every line the ended worker wrote is logged, so that its
    /// last words come before the host's report of the crash.
    func waitForOutput(upTo limit: Duration) {
        _ = outputFinished.wait(timeout: .now() + .milliseconds(limit.milliseconds))
    }

    /// Reads `descriptor` until end of file on a thread of its own, logging each line at
    /// warning level under the plugin's name.
    private static func forwardOutput(
        of descriptor: Int32, pluginName: String, pid: pid_t, logger: Logger, finished: DispatchSemaphore
    ) {
        let thread = Thread {
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            func emit(_ line: ArraySlice<UInt8>) {
                let text = String(decoding: line, as: UTF8.self)
                guard !text.isEmpty else { return }
                logger.warning(
                    "plugin '\(pluginName)' wrote: \(text)",
                    metadata: ["plugin": "\(pluginName)", "worker": "\(pid)"])
            }
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending += chunk[0..<count]
                while let newline = pending.firstIndex(of: 0x0A) {
                    emit(pending[..<newline])
                    pending.removeSubrange(...newline)
                }
            }
            emit(pending[...])
            close(descriptor)
            finished.signal()
        }
        thread.name = "webimage worker output"
        thread.start()
    }
}
