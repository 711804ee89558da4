import CWebImageIsolation

#if canImport(Glibc)
    import Glibc
#endif

/// What one message between the host and a plugin worker asks or answers
/// (docs/architecture.md, "Crash isolation").
enum WorkerOperation: UInt32, Sendable {
    // Host to worker: one request at a time, each answered by one `reply`.
    /// Opens the plugin; payload: ``WorkerOpenRequest`` as JSON. Reply payload: ``WorkerOpenReply``.
    case open = 1
    /// `can_decode` on `count` bytes at `offset` of `block`; reply `index` 1 or 0.
    case canDecode
    /// `probe` on the bytes; reply payload: `webimage_image_info`.
    case probe
    /// `decode`; payload: `webimage_decode_options`. Reply: the pixels' `block` and `offset`,
    /// payload `webimage_image` (its `pixels` field zero).
    case decode
    /// `encode` of the pixels at `offset` of `block`; payload: ``WorkerImageView`` then
    /// `webimage_encode_options`. Reply: the bytes' `block`, `offset` and `count`.
    case encode
    /// `encode_animation` of `index` frames: one ``WorkerImageView`` per frame at `offset` of
    /// `block`; payload: `webimage_encode_options`. Reply as `encode`.
    case encodeAnimation
    /// `incremental_create`; payload: `webimage_decode_options`. Reply `handle`.
    case incrementalCreate
    /// `incremental_append` of the bytes to `handle`; `index` 1 for the final bytes.
    case incrementalAppend
    /// `incremental_copy_image` of `handle`; reply as `decode`.
    case incrementalCopyImage
    /// `incremental_destroy` of `handle`.
    case incrementalDestroy
    /// `animation_open` on the bytes (the block stays the plugin's until `animationClose`);
    /// reply `handle`, payload `webimage_image_info`.
    case animationOpen
    /// `animation_frame_duration` of frame `index` of `handle`; reply `count` (milliseconds).
    case animationFrameDuration
    /// `animation_decode_frame` of frame `index` of `handle`; payload `webimage_decode_options`; reply as `decode`.
    case animationDecodeFrame
    /// `animation_close` of `handle`.
    case animationClose
    /// Unmaps `block` (no reply): the host has destroyed it.
    case forget
    /// The answer to `allocate`: `block` of `count` bytes; its descriptor is attached the first
    /// time this worker sees the block.
    case allocation
    /// `animation_encoder_create` for `count` frames of `index` (width in the low 32 bits,
    /// height in the high 32 bits) pixels; payload: `webimage_encode_options`. Reply `handle`.
    case animationEncoderCreate
    /// `animation_encoder_add` to `handle` of the frame described by the ``WorkerImageView`` at
    /// `offset` of `block` (its pixels in the same block, rows packed).
    case animationEncoderAdd
    /// `animation_encoder_finish` of `handle`; reply as `encode`.
    case animationEncoderFinish
    /// `animation_encoder_destroy` of `handle`.
    case animationEncoderDestroy

    // Worker to host.
    /// The plugin called the host allocator for `count` bytes aligned to `index`.
    case allocate = 100
    /// The plugin freed `block`.
    case free
    /// The end of the current request: `status` and its payload (the error message when the
    /// status is not OK).
    case reply
}

/// The fixed header of every message; a payload of ``payloadSize`` bytes follows it.
struct WorkerFrame: Sendable {
    var operation: UInt32
    var status: Int32 = 0
    var handle: UInt64 = 0
    var block: UInt64 = 0
    var offset: UInt64 = 0
    var count: UInt64 = 0
    var index: UInt64 = 0

    init(_ operation: WorkerOperation, status: Int32 = 0) {
        self.operation = operation.rawValue
        self.status = status
    }

    var kind: WorkerOperation? { WorkerOperation(rawValue: operation) }
}

/// The pixels of an image to encode, inside a shared block.
struct WorkerImageView: Sendable {
    var width: UInt32
    var height: UInt32
    var pixelFormat: UInt32
    var durationMilliseconds: UInt32
    var stride: UInt64
    var block: UInt64
    var offset: UInt64
}

/// `open`'s request: the plugin as the host discovered it.
struct WorkerOpenRequest: Codable, Sendable {
    var manifestPath: String
    var libraryPath: String
    var manifest: PluginManifest
    /// Only check that the plugin opens (`plugins verify`): every kind's adapter, no coder needed.
    var scanOnly: Bool
}

/// `open`'s answer: a fault, or what the coder table declares.
struct WorkerOpenReply: Codable, Sendable {
    struct Format: Codable, Sendable {
        var name: String
        var mimeType: String
        var capabilities: UInt32
    }
    struct Fault: Codable, Sendable {
        var reason: String
        var file: String
        var detail: String
    }
    var fault: Fault?
    var formats: [Format] = []
    var threadSafe = false
    var canEncode = false
    var canEncodeAnimation = false
    var incremental = false
    var animation = false
    /// The table has the `animation_encoder_*` functions (frame-by-frame animation encoding).
    var animationEncoder = false
}

/// One end of the worker socket (a `SOCK_SEQPACKET` pair: one message per send, never split).
struct WorkerChannel: Sendable {
    /// The largest message either side sends, header included (payloads are small structs,
    /// JSON of a few formats, or an error message).
    static let capacity = 16_384
    let socket: Int32

    /// A message could not be sent or received: the peer is gone or broke the protocol.
    struct Broken: Error {
        let reason: String
    }

    /// Sends `frame` with `payload`, and `descriptor` attached when it is not -1.
    func send(
        _ frame: WorkerFrame, payload: UnsafeRawBufferPointer = .init(start: nil, count: 0), descriptor: Int32 = -1
    )
        throws(Broken)
    {
        let headerSize = MemoryLayout<WorkerFrame>.size
        let total = headerSize + payload.count
        guard total <= Self.capacity else { throw Broken(reason: "message of \(total) bytes is too large") }
        let status = withUnsafeTemporaryAllocation(byteCount: total, alignment: 8) { buffer in
            var header = frame
            withUnsafeBytes(of: &header) {
                buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: headerSize)
            }
            if let source = payload.baseAddress, payload.count > 0 {
                (buffer.baseAddress! + headerSize).copyMemory(from: source, byteCount: payload.count)
            }
            return webimage_isolation_send(socket, buffer.baseAddress!, total, descriptor)
        }
        guard status == 0 else { throw Broken(reason: "send failed (\(String(cString: strerror(errno))))") }
    }

    /// Sends `frame` with the bytes of `value` as payload.
    func send<Value>(_ frame: WorkerFrame, value: Value) throws(Broken) {
        var copy = value
        let result = withUnsafeBytes(of: &copy) { bytes in
            Result { () throws(Broken) in try send(frame, payload: bytes) }
        }
        try result.get()
    }

    /// Sends `frame` with `bytes` as payload.
    func send(_ frame: WorkerFrame, bytes: [UInt8]) throws(Broken) {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(Broken) in try send(frame, payload: raw) } }
        try result.get()
    }

    /// One received message.
    struct Message {
        var frame: WorkerFrame
        var payload: [UInt8]
        /// A descriptor attached to the message, owned by the receiver; -1 when none.
        var descriptor: Int32

        /// The payload read as a `Value` (zero-filled when shorter), starting at byte `offset`.
        func value<Value>(_ type: Value.Type, at offset: Int = 0) -> Value {
            withUnsafeTemporaryAllocation(byteCount: MemoryLayout<Value>.size, alignment: MemoryLayout<Value>.alignment)
            {
                buffer in
                buffer.initializeMemory(as: UInt8.self, repeating: 0)
                let available = max(0, min(payload.count - offset, MemoryLayout<Value>.size))
                if available > 0 {
                    payload.withUnsafeBytes {
                        buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: available)
                    }
                }
                return buffer.baseAddress!.loadUnaligned(as: Value.self)
            }
        }

        var text: String { String(decoding: payload, as: UTF8.self) }
    }

    /// Receives the next message, or nil when the peer closed its end.
    func receive() throws(Broken) -> Message? {
        var descriptor: Int32 = -1
        var size = 0
        let buffer = [UInt8](unsafeUninitializedCapacity: Self.capacity) { raw, initialized in
            size = webimage_isolation_receive(socket, raw.baseAddress!, raw.count, &descriptor)
            initialized = max(0, size)
        }
        if size == 0 { return nil }
        guard size > 0 else {
            if errno == ECONNRESET { return nil }
            throw Broken(reason: "receive failed (\(String(cString: strerror(errno))))")
        }
        let headerSize = MemoryLayout<WorkerFrame>.size
        guard size >= headerSize else {
            if descriptor >= 0 { close(descriptor) }
            throw Broken(reason: "a message of \(size) bytes is shorter than the header")
        }
        let frame = buffer.withUnsafeBytes { $0.loadUnaligned(as: WorkerFrame.self) }
        return Message(frame: frame, payload: Array(buffer[headerSize..<size]), descriptor: descriptor)
    }
}
