import CWebImageIsolation
import FoundationEssentials
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// One running plugin worker: the child process, the host's end of its socket, and the pipe
/// of its standard output and error, whose lines the host logs while it waits for replies
/// (so a call's lines are logged before the call returns, in order).
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
    /// The read end of the worker's standard output and error (-1 once it ended), and the
    /// incomplete line read so far.
    private var output: (descriptor: Int32, pending: [UInt8])
    private let pluginName: String
    private let logger: Logger

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

    /// Starts `executable` with the worker's socket and a pipe for its output, whose lines go
    /// to `logger` at warning level as `plugin 'name' wrote: ...` (``drainOutput()``).
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
        let cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let cEnvironment: [UnsafeMutablePointer<CChar>?] = Self.environment.map { strdup($0) } + [nil]
        defer { for string in cArguments + cEnvironment { free(string) } }
        // From the thread that outlives every worker (errno read there too): see WorkerSpawnThread.
        let (child, spawnError) = WorkerSpawnThread.shared.run { [cArguments, cEnvironment, sockets, output] in
            var (arguments, environment) = (cArguments, cEnvironment)
            let child = webimage_isolation_spawn(executable, &arguments, &environment, sockets[1], output[1])
            return (child, SharedMemoryBlock.lastError)
        }
        close(sockets[1])
        close(output[1])
        guard child > 0 else {
            close(sockets[0])
            close(output[0])
            throw WorkerChannel.Broken(reason: "cannot start the plugin worker \(executable): \(spawnError)")
        }
        pid = child
        channel = WorkerChannel(socket: sockets[0])
        _ = fcntl(output[0], F_SETFL, fcntl(output[0], F_GETFL) | O_NONBLOCK)
        self.output = (output[0], [])
        self.pluginName = pluginName
        self.logger = logger
    }

    /// The host's environment, with the Swift runtime's backtracer off: it would spend seconds
    /// symbolicating a plugin's crash (eating into the deadlines) and fill the log.
    private static var environment: [String] {
        var variables = ProcessInfo.processInfo.environment
        variables["SWIFT_BACKTRACE"] = "enable=no"
        return variables.map { "\($0.key)=\($0.value)" }
    }

    deinit {
        close(channel.socket)
        if output.descriptor >= 0 { close(output.descriptor) }
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

    /// The worker's output descriptor while it is open, for waiting on it beside the socket.
    var outputDescriptor: Int32 { output.descriptor }

    /// Logs every complete line the worker has written so far (and, once the worker has ended,
    /// the last incomplete one). Never blocks: the descriptor is non-blocking.
    func drainOutput() {
        guard output.descriptor >= 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        var ended = false
        while true {
            let count = chunk.withUnsafeMutableBytes { read(output.descriptor, $0.baseAddress!, $0.count) }
            if count > 0 {
                output.pending += chunk[0..<count]
                continue
            }
            if count < 0 && errno == EINTR { continue }
            ended = count == 0
            break
        }
        while let newline = output.pending.firstIndex(of: 0x0A) {
            log(output.pending[..<newline])
            output.pending.removeSubrange(...newline)
        }
        if ended {
            log(output.pending[...])
            output.pending = []
            close(output.descriptor)
            output.descriptor = -1
        }
    }

    private func log(_ line: ArraySlice<UInt8>) {
        let text = String(decoding: line, as: UTF8.self)
        guard !text.isEmpty else { return }
        logger.warning(
            "plugin '\(pluginName)' wrote: \(text)", metadata: ["plugin": "\(pluginName)", "worker": "\(pid)"])
    }
}
