import CWebImageIsolation
import CWebImagePlugin
import FoundationEssentials
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Supervises the worker process of one isolated plugin: starts it (and opens the plugin in
/// it) on first use and after a crash, runs one request at a time in it, serves the
/// allocations its plugin makes from shared memory, kills it when a call overruns its
/// deadline, and disables the plugin after ``PluginIsolation/maximumFailures`` crashes or
/// timeouts.
final class IsolatedPlugin: @unchecked Sendable {
    // @unchecked: the mutable state is only touched with `lock` held, and every request holds
    // the lock from start to reply, which is how calls into one worker are serialised.
    let plugin: DiscoveredPlugin
    let isolation: PluginIsolation
    let pool = SharedMemoryPool()
    private let logger: Logger
    private let lock = ThreadLock()
    private var worker: WorkerProcess?
    /// Counts started workers; a handle (animation, incremental decode) belongs to one.
    private var generation: UInt64 = 0
    private var failures = 0
    private var disabledReason: String?
    /// What the last successful open reported.
    private var opened: WorkerOpenReply?

    /// The worker executable this plugin runs in: the first of the isolation's candidates for
    /// the plugin's folder that is an executable file, or nil when none is.
    let workerExecutable: String?
    /// The worker executables looked for, in order.
    let workerCandidates: [String]

    init(plugin: DiscoveredPlugin, isolation: PluginIsolation, logger: Logger) {
        self.plugin = plugin
        self.isolation = isolation
        self.logger = logger
        let folder = URL(fileURLWithPath: plugin.manifestPath).deletingLastPathComponent().path
        workerCandidates = isolation.workerExecutableCandidates(forPluginsIn: folder)
        workerExecutable = workerCandidates.first { access($0, X_OK) == 0 }
    }

    /// The fault of a plugin that must run isolated when no worker executable was found: it
    /// names the plugin, the paths tried and the ways to fix it; nil when a worker was found.
    var missingWorkerFault: PluginFault? {
        guard workerExecutable == nil else { return nil }
        let folder = URL(fileURLWithPath: plugin.manifestPath).deletingLastPathComponent().path
        let worker = PluginIsolation.workerExecutableName
        let why =
            plugin.trust == .trusted
            ? "the isolation policy is 'all'" : "its folder \(folder) is not one the app named as its own"
        return PluginFault(
            .workerMissing, file: plugin.libraryPath, plugin: name,
            detail: "the plugin must run in a \(worker) process (\(why)), and there is none at "
                + "\(workerCandidates.joined(separator: " or ")); install \(worker) there, set "
                + "PluginIsolation.workerExecutable, or make the folder the app's plugins folder "
                + "(ImageManagerConfiguration.pluginsDirectory) to run the plugin in-process")
    }

    deinit {
        worker?.terminate()
    }

    var name: String { plugin.name }

    /// A block that the worker's reply names, handed over to the caller (checked to lie within
    /// a block the worker's plugin allocated).
    struct Claim {
        /// The generation of the worker that answered.
        let generation: UInt64
        fileprivate let take: (UInt64, UInt64, UInt64) throws -> SharedMemoryBlock
        /// The block `id`, whose bytes `offset ..< offset + count` the reply refers to.
        func block(_ id: UInt64, offset: UInt64, count: UInt64) throws -> SharedMemoryBlock {
            try take(id, offset, count)
        }
    }

    /// Starts the worker if none runs and opens the plugin in it.
    /// - Throws: ``PluginFault`` when the plugin cannot be opened (including a crash or hang of
    ///   its entry function), ``ImageCodingError`` `.pluginDisabled`.
    func open() throws -> WorkerOpenReply {
        lock.lock()
        defer { lock.unlock() }
        if let disabledReason { throw ImageCodingError(.pluginDisabled, disabledReason) }
        _ = try runningWorker()
        return opened!
    }

    /// The generation of the running worker, starting it if needed.
    func currentGeneration() throws -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        if let disabledReason { throw ImageCodingError(.pluginDisabled, disabledReason) }
        _ = try runningWorker()
        return generation
    }

    /// Runs one request in the worker and reads its reply with `readReply`.
    ///
    /// - Parameters:
    ///   - call: the call's name for messages (`decode`, `probe`...).
    ///   - sharing: blocks the request refers to; each is mapped into the worker first.
    ///   - generation: when the request belongs to state in one worker (a handle), that
    ///     worker's generation; the call fails when the worker has been replaced since.
    ///   - deadline: the decode's deadline, when the call decodes: the worker is killed
    ///     ``deadlineGrace`` after it if the plugin has not answered by then, even when
    ///     ``PluginIsolation/callTimeout`` is longer.
    /// - Throws: ``ImageCodingError``: `.pluginCrashed`, `.timedOut`, `.pluginDisabled`, or
    ///   what `readReply` throws; ``PluginFault`` when a new worker cannot open the plugin.
    func request<Result>(
        _ call: String, _ frame: WorkerFrame, payload: [UInt8] = [], sharing blocks: [SharedMemoryBlock] = [],
        generation required: UInt64? = nil, deadline: DecodeDeadline? = nil,
        readReply: (WorkerChannel.Message, Claim) throws -> Result
    ) throws -> Result {
        lock.lock()
        defer { lock.unlock() }
        if let disabledReason { throw ImageCodingError(.pluginDisabled, disabledReason) }
        if let required, required != generation || worker == nil {
            throw ImageCodingError(
                .internalError, "plugin '\(name)' was restarted after a crash; the state \(call) needs is gone")
        }
        let worker = try runningWorker()
        let reply = try exchange(
            call, frame, payload: payload, sharing: blocks, with: worker, limit: callLimit(deadline: deadline))
        let claim = Claim(generation: generation) { id, offset, count in
            guard let block = worker.lentBlocks[id], block.contains(offset: offset, count: count) else {
                throw ImageCodingError(
                    .internalError, "plugin '\(self.name)' answered \(call) with memory it was not given")
            }
            worker.lentBlocks[id] = nil
            return block
        }
        return try readReply(reply, claim)
    }

    /// Sends a request that needs no answer beyond success (closing a handle); failures are
    /// logged, never thrown.
    func release(_ call: String, _ frame: WorkerFrame, generation required: UInt64) {
        do {
            lock.lock()
            defer { lock.unlock() }
            guard disabledReason == nil, required == generation, let worker else { return }
            _ = try exchange(
                call, frame, payload: [], sharing: [], with: worker, limit: CallLimit(isolation.callTimeout))
        } catch {
            logger.warning("\(error)")
        }
    }

    /// Opens the plugin in a worker of its own that ends right after (`plugins verify`, as
    /// GStreamer's plugin scanner does): every kind is checked, and a crash or a hang of the
    /// entry function is a fault instead of the end of the host.
    /// - Returns: the fault, or nil when the plugin opens.
    func scan() -> PluginFault? {
        lock.lock()
        defer { lock.unlock() }
        do {
            let scanner = try startWorker(scanOnly: true)
            scanner.terminate()
            return nil
        } catch let fault as PluginFault {
            return fault
        } catch {
            return PluginFault(.loadFailed, file: plugin.libraryPath, plugin: name, detail: "\(error)")
        }
    }

    // MARK: - With the lock held

    /// The running worker, or a new one with the plugin opened in it.
    private func runningWorker() throws -> WorkerProcess {
        if let worker { return worker }
        let started = try startWorker(scanOnly: false)
        generation += 1
        worker = started
        return started
    }

    /// A new worker with the plugin opened in it.
    private func startWorker(scanOnly: Bool) throws -> WorkerProcess {
        let started: WorkerProcess
        guard let workerExecutable else { throw missingWorkerFault! }
        do {
            started = try WorkerProcess(executable: workerExecutable, pluginName: name, logger: logger)
        } catch {
            throw PluginFault(.loadFailed, file: plugin.libraryPath, plugin: name, detail: error.reason)
        }
        let request = WorkerOpenRequest(
            manifestPath: plugin.manifestPath, libraryPath: plugin.libraryPath, manifest: plugin.manifest,
            scanOnly: scanOnly)
        let reply: WorkerOpenReply
        do {
            let message = try exchange(
                "its entry function", WorkerFrame(.open), payload: Array(try JSONEncoder().encode(request)),
                sharing: [], with: started, limit: CallLimit(isolation.openTimeout))
            reply = try JSONDecoder().decode(WorkerOpenReply.self, from: Data(message.payload))
        } catch let error as ImageCodingError {
            throw PluginFault(
                error.kind == .timedOut ? .entryHung : .entryCrashed, file: plugin.libraryPath, plugin: name,
                detail: error.message)
        } catch let fault as PluginFault {
            throw fault
        } catch {
            started.terminate()
            throw PluginFault(.loadFailed, file: plugin.libraryPath, plugin: name, detail: "\(error)")
        }
        if let fault = reply.fault {
            started.terminate()
            throw PluginFault(
                PluginFault.Reason(rawValue: fault.reason) ?? .loadFailed, file: fault.file, plugin: name,
                detail: fault.detail)
        }
        if !scanOnly { opened = reply }
        return started
    }

    /// How long a plugin may go on after its decode deadline before its worker is killed:
    /// time to notice the deadline in its row or frame loop and answer `TIMED_OUT`. 1 second.
    static let deadlineGrace: Duration = .seconds(1)

    /// How long one call may take, and what its timeout says.
    struct CallLimit {
        let timeout: Duration
        /// The decode's deadline when it, not the call timeout, ends the call.
        var decodeDeadline: DecodeDeadline?

        init(_ timeout: Duration, decodeDeadline: DecodeDeadline? = nil) {
            self.timeout = timeout
            self.decodeDeadline = decodeDeadline
        }

        /// The error of a call that ran out of its time, in `call` of plugin `name`.
        func error(plugin name: String, call: String) -> ImageCodingError {
            guard let decodeDeadline else {
                return ImageCodingError(
                    .timedOut,
                    "plugin '\(name)' timed out in \(call) after \(timeout.secondsText); its worker was killed")
            }
            let limit =
                decodeDeadline.timeLimit.map { "the decode time limit of \($0.secondsText)" } ?? "its decode deadline"
            return ImageCodingError(
                .timedOut,
                "plugin '\(name)' timed out in \(call): it ran \(IsolatedPlugin.deadlineGrace.secondsText) past \(limit); its worker was killed"
            )
        }
    }

    /// The call timeout, or less when the decode's `deadline` (plus ``deadlineGrace``) comes first.
    private func callLimit(deadline: DecodeDeadline?) -> CallLimit {
        guard let deadline else { return CallLimit(isolation.callTimeout) }
        let remaining = Duration.nanoseconds(
            Int64(clamping: deadline.monotonicNanoseconds) - Int64(clamping: webimage_monotonic_ns()))
        let timeout = max(remaining, .zero) + Self.deadlineGrace
        guard timeout < isolation.callTimeout else { return CallLimit(isolation.callTimeout) }
        return CallLimit(timeout, decodeDeadline: deadline)
    }

    /// Sends one request and serves the worker until its reply; a crash or a timeout ends the
    /// worker and is counted.
    private func exchange(
        _ call: String, _ frame: WorkerFrame, payload: [UInt8], sharing blocks: [SharedMemoryBlock],
        with worker: WorkerProcess, limit: CallLimit
    ) throws -> WorkerChannel.Message {
        let deadline = ContinuousClock.now + limit.timeout
        do {
            for id in pool.takeForgotten() where worker.knownBlocks.remove(id) != nil {
                var forget = WorkerFrame(.forget)
                forget.block = id
                try worker.channel.send(forget)
            }
            for block in blocks { try introduce(block, to: worker) }
            try worker.channel.send(frame, bytes: payload)
            while true {
                let remaining = ContinuousClock.now.duration(to: deadline)
                let ready = webimage_isolation_wait_either(
                    worker.channel.socket, worker.outputDescriptor, Int32(clamping: max(0, remaining.milliseconds)))
                if ready & 2 != 0 { worker.drainOutput() }
                if ready > 0 && ready & 1 == 0 { continue }
                guard ready != 0 else {
                    worker.terminate()
                    throw failure(limit.error(plugin: name, call: call), worker: worker)
                }
                guard let message = try worker.channel.receive() else { throw ended(worker, in: call) }
                if message.descriptor >= 0 { close(message.descriptor) }
                switch message.frame.kind {
                case .reply?:
                    worker.drainOutput()
                    return message
                case .allocate?:
                    try serveAllocation(message.frame, for: worker)
                case .free?:
                    if let block = worker.lentBlocks.removeValue(forKey: message.frame.block) { pool.give(block) }
                default:
                    worker.terminate()
                    throw failure(
                        ImageCodingError(
                            .pluginCrashed,
                            "plugin '\(name)' broke the worker protocol in \(call); its worker was killed"),
                        worker: worker)
                }
            }
        } catch is WorkerChannel.Broken {
            throw ended(worker, in: call)
        }
    }

    /// Maps `block` into the worker unless it already is.
    private func introduce(_ block: SharedMemoryBlock, to worker: WorkerProcess) throws(WorkerChannel.Broken) {
        guard !worker.knownBlocks.contains(block.id) else { return }
        var frame = WorkerFrame(.allocation)
        frame.block = block.id
        frame.count = UInt64(block.size)
        try worker.channel.send(frame, descriptor: block.descriptor)
        worker.knownBlocks.insert(block.id)
    }

    /// Answers the plugin's allocation with a block from the pool (its descriptor attached the
    /// first time), or with block 0 when memory runs out.
    private func serveAllocation(_ request: WorkerFrame, for worker: WorkerProcess) throws(WorkerChannel.Broken) {
        var answer = WorkerFrame(.allocation)
        if request.count <= UInt64(Int.max / 2), let block = try? pool.take(Int(request.count)) {
            worker.lentBlocks[block.id] = block
            answer.block = block.id
            answer.count = UInt64(block.size)
            let descriptor = worker.knownBlocks.contains(block.id) ? -1 : block.descriptor
            try worker.channel.send(answer, descriptor: descriptor)
            worker.knownBlocks.insert(block.id)
        } else {
            try worker.channel.send(answer)
        }
    }

    /// The worker's socket closed during `call`: reaps it and makes the crash error.
    private func ended(_ worker: WorkerProcess, in call: String) -> ImageCodingError {
        let ending = worker.reap(waitingUpTo: .seconds(2))
        worker.drainOutput()
        let verb: String
        switch ending {
        case .signal: verb = "crashed"
        case .exit: verb = "exited"
        }
        return failure(
            ImageCodingError(.pluginCrashed, "plugin '\(name)' \(verb) in \(call) (\(ending.description))"),
            worker: worker)
    }

    /// Forgets the ended `worker` (its blocks go back to the pool), counts the failure and
    /// disables the plugin when there were too many; returns `error` to throw.
    private func failure(_ error: ImageCodingError, worker ended: WorkerProcess) -> ImageCodingError {
        for block in ended.lentBlocks.values { pool.give(block) }
        ended.lentBlocks = [:]
        if worker === ended { worker = nil }
        failures += 1
        logger.warning("\(error.message)", metadata: ["plugin": "\(name)"])
        if failures >= isolation.maximumFailures {
            disabledReason =
                "plugin '\(name)' is disabled: its worker failed \(failures) times (last: \(error.message))"
            logger.error("\(disabledReason!)", metadata: ["plugin": "\(name)"])
        }
        return error
    }
}
