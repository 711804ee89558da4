import CWebImageIsolation
import CWebImagePlugin
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The plugin worker process: opens one plugin and runs the host's requests in it, one at a
/// time, until the host closes the socket (docs/architecture.md, "Crash isolation").
///
/// `webimage-plugin-worker` is nothing but a call to ``run(arguments:)``; a host app that
/// prefers one executable can call it from its own `main` when started with the worker's
/// arguments, and point ``PluginIsolation/workerExecutable`` at itself.
public enum PluginWorker {
    /// Serves requests on descriptor 3 until the host goes away, then exits.
    /// - Parameter arguments: `--parent PID --plugin NAME` as the host passes them (the name is
    ///   for `ps`); the worker exits at once when PID is not its parent.
    public static func run(arguments: [String] = CommandLine.arguments) -> Never {
        var parent = getppid()
        if let index = arguments.firstIndex(of: "--parent"), index + 1 < arguments.count,
            let value = Int32(arguments[index + 1])
        {
            parent = value
        }
        webimage_isolation_worker_setup(parent)
        let server = WorkerServer(channel: WorkerChannel(socket: WEBIMAGE_WORKER_SOCKET_FD))
        server.serve()
        exit(0)
    }
}

/// The worker's request loop; see ``WorkerOperation`` for what each request does.
final class WorkerServer {
    private let channel: WorkerChannel
    private let memory: WorkerMemory
    private var table: webimage_coder?
    private var states: [UInt64: OpaquePointer] = [:]
    private var nextHandle: UInt64 = 1

    /// The memory of the one worker in this process, for the C allocator callbacks.
    nonisolated(unsafe) static var current: WorkerMemory?

    init(channel: WorkerChannel) {
        self.channel = channel
        self.memory = WorkerMemory(channel: channel)
        Self.current = memory
    }

    /// The `webimage_host` the plugin gets in the worker: shared-memory allocations, and a log
    /// written to standard error (which the host reads into its own log).
    nonisolated(unsafe) static let host: UnsafePointer<webimage_host> = {
        let host = UnsafeMutablePointer<webimage_host>.allocate(capacity: 1)
        host.initialize(
            to: webimage_host(
                abi_version: WEBIMAGE_PLUGIN_ABI_VERSION,
                struct_size: UInt32(MemoryLayout<webimage_host>.size),
                context: nil,
                allocate: { _, size, alignment in WorkerServer.current?.allocate(size, alignment: alignment) },
                deallocate: { _, pointer in if let pointer { WorkerServer.current?.deallocate(pointer) } },
                log: { _, _, message in
                    var standardError = DescriptorOutputStream(descriptor: 2)
                    standardError.write(String(cString: message) + "\n")
                }))
        return UnsafePointer(host)
    }()

    func serve() {
        while true {
            let message: WorkerChannel.Message
            do {
                guard let received = try channel.receive() else { return }
                message = received
            } catch {
                return
            }
            do {
                try handle(message)
            } catch {
                return
            }
        }
    }

    private func handle(_ message: WorkerChannel.Message) throws(WorkerChannel.Broken) {
        let frame = message.frame
        switch frame.kind {
        case .allocation?:
            if message.descriptor >= 0 {
                memory.map(frame.block, size: Int(frame.count), descriptor: message.descriptor)
            }
        case .forget?:
            memory.forget(frame.block)
        case .open?:
            try open(message)
        case .some(let operation):
            if message.descriptor >= 0 { close(message.descriptor) }
            guard let table else { return try fail(WEBIMAGE_STATUS_INTERNAL_ERROR, "the plugin is not open") }
            try run(operation, frame, payload: message, table: table)
        case nil:
            if message.descriptor >= 0 { close(message.descriptor) }
            try fail(WEBIMAGE_STATUS_INVALID_ARGUMENT, "unknown request \(frame.operation)")
        }
    }

    private func open(_ message: WorkerChannel.Message) throws(WorkerChannel.Broken) {
        var reply = WorkerOpenReply()
        do {
            let request = try JSONDecoder().decode(WorkerOpenRequest.self, from: Data(message.payload))
            let plugin = DiscoveredPlugin(
                manifest: request.manifest, manifestPath: request.manifestPath, libraryPath: request.libraryPath)
            let opened = try PluginLibrary.open(
                plugin, host: Self.host, adapters: request.scanOnly ? PluginKindAdapters.standard : [PluginCoder.self])
            if let coder = opened.coder {
                table = coder.table
                reply.formats = coder.formats.map {
                    .init(name: $0.name, mimeType: $0.mimeType, capabilities: $0.capabilities.rawValue)
                }
                reply.threadSafe = coder.isThreadSafe
                reply.canEncode = coder.table.encode != nil
                reply.canEncodeAnimation = coder.table.encode_animation != nil
                reply.incremental = coder.table.incremental_create != nil
                reply.animation = coder.table.animation_open != nil
                reply.animationEncoder = coder.table.animation_encoder_create != nil
            } else if !request.scanOnly {
                reply.fault = .init(
                    reason: PluginFault.Reason.descriptorMismatch.rawValue, file: request.libraryPath,
                    detail: "the plugin provides no coder")
            }
        } catch let fault as PluginFault {
            reply.fault = .init(reason: fault.reason.rawValue, file: fault.file, detail: fault.detail)
        } catch {
            reply.fault = .init(reason: PluginFault.Reason.loadFailed.rawValue, file: "", detail: "\(error)")
        }
        let payload = (try? JSONEncoder().encode(reply)).map(Array.init) ?? []
        try channel.send(WorkerFrame(.reply), bytes: payload)
    }

    /// Runs one coder call and sends its reply.
    private func run(
        _ operation: WorkerOperation, _ frame: WorkerFrame, payload message: WorkerChannel.Message,
        table: webimage_coder
    ) throws(WorkerChannel.Broken) {
        let error = ErrorMessageBuffer()
        var reply = WorkerFrame(.reply)
        var payload: [UInt8] = []
        func input() -> UnsafeMutablePointer<UInt8>? {
            memory.bytes(frame.block, offset: frame.offset, count: frame.count)?.assumingMemoryBound(to: UInt8.self)
        }
        func state() -> OpaquePointer? { states[frame.handle] }
        var status: webimage_status = WEBIMAGE_STATUS_OK
        switch operation {
        case .canDecode:
            guard let bytes = input() else { return try fail(WEBIMAGE_STATUS_INVALID_ARGUMENT, "unknown input block") }
            reply.index = table.can_decode(bytes, Int(frame.count)) ? 1 : 0
        case .probe:
            guard let bytes = input() else { return try fail(WEBIMAGE_STATUS_INVALID_ARGUMENT, "unknown input block") }
            var info = webimage_image_info()
            info.struct_size = UInt32(MemoryLayout<webimage_image_info>.size)
            status = error.withError { table.probe(bytes, Int(frame.count), &info, $0) }
            payload = IsolatedCoder.bytes(of: info)
        case .decode:
            guard let bytes = input() else { return try fail(WEBIMAGE_STATUS_INVALID_ARGUMENT, "unknown input block") }
            var options = message.value(webimage_decode_options.self)
            var image = PluginCoder.emptyImage()
            status = error.withError { table.decode(bytes, Int(frame.count), &options, &image, $0) }
            status = describe(image, status: status, into: &reply, payload: &payload)
        case .encode, .encodeAnimation:
            status = encode(
                operation, frame, options: message.value(webimage_encode_options.self), table: table,
                error: error, reply: &reply)
        case .incrementalCreate:
            guard let create = table.incremental_create else { return try unsupported() }
            var options = message.value(webimage_decode_options.self)
            var created: OpaquePointer?
            status = error.withError { create(&options, &created, $0) }
            if status == WEBIMAGE_STATUS_OK, let created { reply.handle = store(created) }
        case .incrementalAppend:
            guard let append = table.incremental_append, let state = state() else { return try unsupported() }
            let bytes = frame.count > 0 ? input() : nil
            status = error.withError { append(state, bytes, Int(frame.count), frame.index == 1, $0) }
        case .incrementalCopyImage:
            guard let copy = table.incremental_copy_image, let state = state() else { return try unsupported() }
            var image = PluginCoder.emptyImage()
            status = error.withError { copy(state, &image, $0) }
            status = describe(image, status: status, into: &reply, payload: &payload)
        case .incrementalDestroy:
            if let destroy = table.incremental_destroy, let state = states.removeValue(forKey: frame.handle) {
                destroy(state)
            }
        case .animationOpen:
            guard let openAnimation = table.animation_open, let bytes = input() else { return try unsupported() }
            var info = webimage_image_info()
            info.struct_size = UInt32(MemoryLayout<webimage_image_info>.size)
            var opened: OpaquePointer?
            status = error.withError { openAnimation(bytes, Int(frame.count), &opened, &info, $0) }
            if status == WEBIMAGE_STATUS_OK, let opened { reply.handle = store(opened) }
            payload = IsolatedCoder.bytes(of: info)
        case .animationFrameDuration:
            guard let duration = table.animation_frame_duration, let state = state() else { return try unsupported() }
            reply.count = UInt64(duration(state, UInt32(clamping: frame.index)))
        case .animationDecodeFrame:
            guard let decodeFrame = table.animation_decode_frame, let state = state() else { return try unsupported() }
            var options = message.value(webimage_decode_options.self)
            var image = PluginCoder.emptyImage()
            status = error.withError { decodeFrame(state, UInt32(clamping: frame.index), &options, &image, $0) }
            status = describe(image, status: status, into: &reply, payload: &payload)
        case .animationClose:
            if let close = table.animation_close, let state = states.removeValue(forKey: frame.handle) { close(state) }
        case .animationEncoderCreate:
            guard let create = table.animation_encoder_create else { return try unsupported() }
            var options = message.value(webimage_encode_options.self)
            var created: OpaquePointer?
            let width = UInt32(truncatingIfNeeded: frame.index)
            let height = UInt32(truncatingIfNeeded: frame.index >> 32)
            status = error.withError { create(width, height, UInt32(clamping: frame.count), &options, &created, $0) }
            if status == WEBIMAGE_STATUS_OK {
                guard let created else { return try fail(WEBIMAGE_STATUS_INTERNAL_ERROR, "the plugin made no encoder") }
                reply.handle = store(created)
            }
        case .animationEncoderAdd:
            guard let add = table.animation_encoder_add, let state = state() else { return try unsupported() }
            guard var view = frameView(frame) else {
                return try fail(WEBIMAGE_STATUS_INVALID_ARGUMENT, "the frame is not in a known block")
            }
            status = error.withError { add(state, &view, $0) }
        case .animationEncoderFinish:
            guard let finish = table.animation_encoder_finish, let state = state() else { return try unsupported() }
            var output = webimage_buffer(bytes: nil, size: 0)
            status = error.withError { finish(state, &output, $0) }
            status = describe(output, status: status, into: &reply)
        case .animationEncoderDestroy:
            if let destroy = table.animation_encoder_destroy, let state = states.removeValue(forKey: frame.handle) {
                destroy(state)
            }
        default:
            return try fail(WEBIMAGE_STATUS_INVALID_ARGUMENT, "unexpected request \(frame.operation)")
        }
        reply.status = status
        if status != WEBIMAGE_STATUS_OK {
            payload = Array(error.message(or: "the plugin's output is not in memory from the host allocator").utf8)
        }
        try channel.send(reply, bytes: payload)
    }

    /// Fills a decode reply from the plugin's image: the block and offset of its pixels, and
    /// the struct without the pointer. Returns the status to send.
    private func describe(
        _ image: webimage_image, status: webimage_status, into reply: inout WorkerFrame, payload: inout [UInt8]
    ) -> webimage_status {
        guard status == WEBIMAGE_STATUS_OK else {
            if let pixels = image.pixels { memory.deallocate(pixels) }
            return status
        }
        guard let pixels = image.pixels, let location = memory.locate(pixels) else {
            return WEBIMAGE_STATUS_INTERNAL_ERROR
        }
        reply.block = location.id
        reply.offset = location.offset
        var copy = image
        copy.pixels = nil
        payload = IsolatedCoder.bytes(of: copy)
        return status
    }

    private func encode(
        _ operation: WorkerOperation, _ frame: WorkerFrame, options: webimage_encode_options, table: webimage_coder,
        error: borrowing ErrorMessageBuffer, reply: inout WorkerFrame
    ) -> webimage_status {
        let count = Int(frame.index)
        let viewSize = MemoryLayout<WorkerImageView>.stride
        guard count > 0, let table0 = memory.bytes(frame.block, offset: 0, count: UInt64(count * viewSize)) else {
            return WEBIMAGE_STATUS_INVALID_ARGUMENT
        }
        var views: [webimage_frame_view] = []
        for index in 0..<count {
            let view = table0.loadUnaligned(fromByteOffset: index * viewSize, as: WorkerImageView.self)
            let (bytes, overflow) = view.stride.multipliedReportingOverflow(by: UInt64(view.height))
            guard !overflow, let pixels = memory.bytes(view.block, offset: view.offset, count: bytes) else {
                return WEBIMAGE_STATUS_INVALID_ARGUMENT
            }
            views.append(
                webimage_frame_view(
                    image: webimage_image_view(
                        width: view.width, height: view.height, pixel_format: view.pixelFormat, reserved: 0,
                        stride: Int(view.stride), pixels: UnsafeRawPointer(pixels)),
                    duration_ms: view.durationMilliseconds, reserved: 0))
        }
        var options = options
        var output = webimage_buffer(bytes: nil, size: 0)
        let status: webimage_status
        if operation == .encode {
            guard let encode = table.encode else { return WEBIMAGE_STATUS_UNSUPPORTED_OPERATION }
            var view = views[0].image
            status = error.withError { encode(&view, &options, &output, $0) }
        } else {
            guard let encodeAnimation = table.encode_animation else { return WEBIMAGE_STATUS_UNSUPPORTED_OPERATION }
            status = error.withError { encodeAnimation(&views, UInt32(count), &options, &output, $0) }
        }
        return describe(output, status: status, into: &reply)
    }

    /// Fills an encode reply from the plugin's output: the block, offset and size of its
    /// bytes. Returns the status to send.
    private func describe(_ output: webimage_buffer, status: webimage_status, into reply: inout WorkerFrame)
        -> webimage_status
    {
        guard status == WEBIMAGE_STATUS_OK else {
            if let bytes = output.bytes { memory.deallocate(bytes) }
            return status
        }
        guard let bytes = output.bytes, let location = memory.locate(bytes),
            UInt64(output.size) <= UInt64(location.size) - location.offset
        else { return WEBIMAGE_STATUS_INTERNAL_ERROR }
        reply.block = location.id
        reply.offset = location.offset
        reply.count = UInt64(output.size)
        return status
    }

    /// The frame that the ``WorkerImageView`` at `offset` of `block` describes, or nil when the
    /// view or its pixels lie outside the blocks the host shared.
    private func frameView(_ frame: WorkerFrame) -> webimage_frame_view? {
        guard
            let raw = memory.bytes(
                frame.block, offset: frame.offset, count: UInt64(MemoryLayout<WorkerImageView>.size))
        else { return nil }
        let view = raw.loadUnaligned(as: WorkerImageView.self)
        let (bytes, overflow) = view.stride.multipliedReportingOverflow(by: UInt64(view.height))
        guard !overflow, let pixels = memory.bytes(view.block, offset: view.offset, count: bytes) else { return nil }
        return webimage_frame_view(
            image: webimage_image_view(
                width: view.width, height: view.height, pixel_format: view.pixelFormat, reserved: 0,
                stride: Int(view.stride), pixels: UnsafeRawPointer(pixels)),
            duration_ms: view.durationMilliseconds, reserved: 0)
    }

    private func store(_ state: OpaquePointer) -> UInt64 {
        defer { nextHandle += 1 }
        states[nextHandle] = state
        return nextHandle
    }

    private func unsupported() throws(WorkerChannel.Broken) {
        try fail(
            WEBIMAGE_STATUS_UNSUPPORTED_OPERATION,
            "the plugin does not provide this operation, or the handle is unknown")
    }

    private func fail(_ status: webimage_status, _ message: String) throws(WorkerChannel.Broken) {
        var reply = WorkerFrame(.reply)
        reply.status = status
        try channel.send(reply, bytes: Array(message.utf8))
    }
}
