import CWebImagePlugin

/// A coder plugin running in a worker process, seen as an ``ImageCoder`` like any other.
///
/// Every call copies the encoded bytes (or, to encode, the pixels) into a shared block the
/// worker maps, and the plugin's output lands in shared blocks it allocates through the
/// worker's host allocator: decoded pixels become a ``PixelBuffer`` over the host's mapping of
/// that block, with no copy. A crash, a timeout or a disabled plugin is an
/// ``ImageCodingError`` (`.pluginCrashed`, `.timedOut`, `.pluginDisabled`) naming the plugin
/// and the call. `DecodeRequest.allocator` and `EncodeRequest.allocator` are not used: the
/// memory is the shared blocks'.
public final class IsolatedCoder: ProgressiveImageCoder, AnimatedImageCoder, Sendable {
    let plugin: IsolatedPlugin
    public let formats: [ImageFormat]
    let opened: WorkerOpenReply

    public var pluginName: String { plugin.name }

    init(plugin: IsolatedPlugin, opened: WorkerOpenReply) {
        self.plugin = plugin
        self.opened = opened
        self.formats = opened.formats.map {
            ImageFormat(
                name: $0.name, mimeType: $0.mimeType, capabilities: ImageFormat.Capabilities(rawValue: $0.capabilities))
        }
    }

    public func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (try? answerCanDecode(bytes)) ?? false
    }

    /// - Throws: the worker's failure: ``PluginFault`` when no worker could open the plugin,
    ///   ``ImageCodingError`` `.pluginCrashed`, `.timedOut` or `.pluginDisabled`.
    public func answerCanDecode(_ bytes: UnsafeRawBufferPointer) throws -> Bool {
        guard !bytes.isEmpty else { return false }
        return try withInput(bytes) { block in
            var frame = WorkerFrame(.canDecode)
            frame.block = block.id
            frame.count = UInt64(bytes.count)
            return try plugin.request("can_decode", frame, sharing: [block]) { reply, _ in reply.frame.index == 1 }
        }
    }

    public func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo {
        guard !bytes.isEmpty else { throw ImageCodingError(.truncatedData, "no data (0 bytes)") }
        return try withInput(bytes) { block in
            var frame = WorkerFrame(.probe)
            frame.block = block.id
            frame.count = UInt64(bytes.count)
            return try plugin.request("probe", frame, sharing: [block]) { reply, _ in
                try Self.check(reply, operation: "probe")
                return ImageInfo(reply.value(webimage_image_info.self), formats: formats)
            }
        }
    }

    public func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage {
        guard !bytes.isEmpty else { throw ImageCodingError(.truncatedData, "no data (0 bytes)") }
        return try withInput(bytes) { block in
            var frame = WorkerFrame(.decode)
            frame.block = block.id
            frame.count = UInt64(bytes.count)
            let call = request.thumbnailBox == nil ? "decode" : "thumbnail decode"
            return try plugin.request(
                call, frame, payload: Self.bytes(of: webimage_decode_options(request)), sharing: [block],
                deadline: request.deadline
            ) {
                reply, claim in try adopt(reply, claim, operation: call, request: request)
            }
        }
    }

    public func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData {
        guard opened.canEncode else {
            throw ImageCodingError(.unsupportedOperation, "plugin '\(pluginName)' cannot encode")
        }
        return try encodeFrames(
            [AnimationFrame(image: image, durationMilliseconds: 0)], request: request, animated: false)
    }

    public func encodeAnimation(_ frames: [AnimationFrame], request: EncodeRequest) throws -> EncodedImageData {
        guard opened.canEncodeAnimation else {
            throw ImageCodingError(.unsupportedOperation, "plugin '\(pluginName)' cannot encode animations")
        }
        return try encodeFrames(frames, request: request, animated: true)
    }

    public func makeIncrementalDecoder(request: DecodeRequest) throws -> any IncrementalImageDecoder {
        guard opened.incremental else {
            throw ImageCodingError(.unsupportedOperation, "plugin '\(pluginName)' cannot decode incrementally")
        }
        return try IsolatedIncrementalDecoder(coder: self, request: request)
    }

    public func openAnimation(_ bytes: [UInt8]) throws -> any AnimatedImageSource {
        guard opened.animation else {
            throw ImageCodingError(.unsupportedOperation, "plugin '\(pluginName)' cannot decode animations")
        }
        return try IsolatedAnimationSource(coder: self, bytes: bytes)
    }

    // MARK: - Shared by the calls

    /// Runs `body` with `bytes` copied into a shared block, which goes back to the pool after.
    func withInput<Result>(_ bytes: UnsafeRawBufferPointer, _ body: (SharedMemoryBlock) throws -> Result) throws
        -> Result
    {
        let block = try plugin.pool.take(bytes.count)
        defer { plugin.pool.give(block) }
        if let source = bytes.baseAddress, !bytes.isEmpty {
            block.base.copyMemory(from: source, byteCount: bytes.count)
        }
        return try body(block)
    }

    /// Throws the plugin's error when the reply's status is not OK.
    static func check(_ reply: WorkerChannel.Message, operation: String) throws {
        guard reply.frame.status != WEBIMAGE_STATUS_OK else { return }
        let text = reply.text
        throw PluginStatus(reply.frame.status).codingError(
            text.isEmpty ? "\(operation) failed with status \(reply.frame.status)" : text)
    }

    /// The bytes of a C struct, as a payload.
    static func bytes<Value>(of value: Value) -> [UInt8] {
        withUnsafeBytes(of: value) { Array($0) }
    }

    /// Turns a decode reply into a ``DecodedImage`` over the shared block the plugin wrote.
    func adopt(_ reply: WorkerChannel.Message, _ claim: IsolatedPlugin.Claim, operation: String, request: DecodeRequest)
        throws -> DecodedImage
    {
        try Self.check(reply, operation: operation)
        let image = reply.value(webimage_image.self)
        let format = try PluginImageOutput.pixelFormat(of: image, pluginName: pluginName)
        let (byteCount, overflow) = image.stride.multipliedReportingOverflow(by: Int(image.height))
        guard !overflow else {
            throw ImageCodingError(.internalError, "plugin '\(pluginName)' returned an invalid stride")
        }
        let block = try claim.block(reply.frame.block, offset: reply.frame.offset, count: UInt64(byteCount))
        let pool = plugin.pool
        let buffer = PixelBuffer(
            adopting: block.base + Int(reply.frame.offset), width: Int(image.width), height: Int(image.height),
            bytesPerRow: image.stride, format: format, deallocate: { _ in pool.give(block) })
        return try PluginImageOutput.decodedImage(
            image, pixels: buffer, formats: formats, pluginName: pluginName, request: request)
    }

    /// Copies the frames into one shared block (their views first, then the pixels, rows packed)
    /// and encodes them as one image or as an animation.
    private func encodeFrames(_ frames: [AnimationFrame], request: EncodeRequest, animated: Bool) throws
        -> EncodedImageData
    {
        guard !frames.isEmpty else { throw ImageCodingError(.invalidArgument, "no frames to encode") }
        let viewSize = MemoryLayout<WorkerImageView>.stride
        var offsets: [Int] = []
        var total = (frames.count * viewSize + 63) / 64 * 64
        for frame in frames {
            offsets.append(total)
            let (rows, overflow) = (frame.image.width * frame.image.format.bytesPerPixel)
                .multipliedReportingOverflow(by: frame.image.height)
            guard !overflow, total <= Int.max - rows - 63 else {
                throw ImageCodingError(.tooLarge, "the frames do not fit in memory")
            }
            total += (rows + 63) / 64 * 64
        }
        let block = try plugin.pool.take(total)
        defer { plugin.pool.give(block) }
        for (index, frame) in frames.enumerated() {
            let image = frame.image
            let rowBytes = image.width * image.format.bytesPerPixel
            for y in 0..<image.height {
                (block.base + offsets[index] + y * rowBytes).copyMemory(from: image.row(y), byteCount: rowBytes)
            }
            let view = WorkerImageView(
                width: UInt32(image.width), height: UInt32(image.height), pixelFormat: image.format.rawValue,
                durationMilliseconds: UInt32(clamping: max(0, frame.durationMilliseconds)), stride: UInt64(rowBytes),
                block: block.id, offset: UInt64(offsets[index]))
            (block.base + index * viewSize).storeBytes(of: view, as: WorkerImageView.self)
        }
        var frame = WorkerFrame(animated ? .encodeAnimation : .encode)
        frame.block = block.id
        frame.index = UInt64(frames.count)
        let operation = animated ? "encode animation" : "encode"
        let options = webimage_encode_options(request, formats: formats)
        return try plugin.request(operation, frame, payload: Self.bytes(of: options), sharing: [block]) {
            reply, claim in try encodedBytes(reply, claim, operation: operation)
        }
    }

    /// Turns an encode reply into ``EncodedImageData`` over the shared block the plugin wrote.
    func encodedBytes(_ reply: WorkerChannel.Message, _ claim: IsolatedPlugin.Claim, operation: String) throws
        -> EncodedImageData
    {
        try Self.check(reply, operation: operation)
        guard reply.frame.count > 0 else {
            throw ImageCodingError(.internalError, "plugin '\(pluginName)' returned no bytes from \(operation)")
        }
        let output = try claim.block(reply.frame.block, offset: reply.frame.offset, count: reply.frame.count)
        let pool = plugin.pool
        return EncodedImageData(
            taking: output.base + Int(reply.frame.offset), count: Int(reply.frame.count),
            deallocate: { _ in pool.give(output) })
    }
}

/// An incremental decode whose state lives in the plugin's worker.
final class IsolatedIncrementalDecoder: IncrementalImageDecoder {
    private let coder: IsolatedCoder
    private let request: DecodeRequest
    private let handle: UInt64
    private let generation: UInt64

    init(coder: IsolatedCoder, request: DecodeRequest) throws {
        let created = try coder.plugin.request(
            "incremental decode", WorkerFrame(.incrementalCreate),
            payload: IsolatedCoder.bytes(of: webimage_decode_options(request))
        ) { reply, claim in
            try IsolatedCoder.check(reply, operation: "incremental decode")
            return (reply.frame.handle, claim.generation)
        }
        self.coder = coder
        self.request = request
        self.handle = created.0
        self.generation = created.1
    }

    deinit {
        var frame = WorkerFrame(.incrementalDestroy)
        frame.handle = handle
        coder.plugin.release("incremental destroy", frame, generation: generation)
    }

    func append(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws {
        try coder.withInput(bytes) { block in
            var frame = WorkerFrame(.incrementalAppend)
            frame.handle = handle
            frame.block = block.id
            frame.count = UInt64(bytes.count)
            frame.index = isFinal ? 1 : 0
            try coder.plugin.request("incremental append", frame, sharing: [block], generation: generation) {
                reply, _ in
                try IsolatedCoder.check(reply, operation: "incremental append")
            }
        }
    }

    func currentImage() throws -> DecodedImage? {
        var frame = WorkerFrame(.incrementalCopyImage)
        frame.handle = handle
        return try coder.plugin.request("incremental decode", frame, generation: generation) { reply, claim in
            if reply.frame.status == WEBIMAGE_STATUS_NEED_MORE_DATA { return nil }
            return try coder.adopt(reply, claim, operation: "incremental decode", request: request)
        }
    }
}

/// An animation opened in the plugin's worker; the file's bytes stay in a shared block the
/// worker's plugin reads until the animation is closed.
final class IsolatedAnimationSource: AnimatedImageSource {
    private let coder: IsolatedCoder
    private let bytes: SharedMemoryBlock
    private let handle: UInt64
    private let generation: UInt64
    let info: ImageInfo

    init(coder: IsolatedCoder, bytes source: [UInt8]) throws {
        guard !source.isEmpty else { throw ImageCodingError(.truncatedData, "no data (0 bytes)") }
        let block = try coder.plugin.pool.take(source.count)
        source.withUnsafeBytes { block.base.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        var frame = WorkerFrame(.animationOpen)
        frame.block = block.id
        frame.count = UInt64(source.count)
        do {
            let opened = try coder.plugin.request("open animation", frame, sharing: [block]) { reply, claim in
                try IsolatedCoder.check(reply, operation: "open animation")
                return (reply.frame.handle, claim.generation, reply.value(webimage_image_info.self))
            }
            self.handle = opened.0
            self.generation = opened.1
            self.info = ImageInfo(opened.2, formats: coder.formats)
        } catch {
            coder.plugin.pool.give(block)
            throw error
        }
        self.coder = coder
        self.bytes = block
    }

    deinit {
        var frame = WorkerFrame(.animationClose)
        frame.handle = handle
        coder.plugin.release("close animation", frame, generation: generation)
        coder.plugin.pool.give(bytes)
    }

    func frameDuration(at index: Int) -> Int {
        guard index >= 0, index < info.frameCount else { return 0 }
        var frame = WorkerFrame(.animationFrameDuration)
        frame.handle = handle
        frame.index = UInt64(index)
        let duration = try? coder.plugin.request("frame duration", frame, generation: generation) { reply, _ in
            Int(reply.frame.count)
        }
        return duration ?? 0
    }

    func decodeFrame(at index: Int, request: DecodeRequest) throws -> DecodedImage {
        guard index >= 0, index < info.frameCount else {
            throw ImageCodingError(
                .invalidArgument, "frame \(index) does not exist; the animation has \(info.frameCount) frames")
        }
        var frame = WorkerFrame(.animationDecodeFrame)
        frame.handle = handle
        frame.index = UInt64(index)
        let operation = "decode frame \(index)"
        return try coder.plugin.request(
            operation, frame, payload: IsolatedCoder.bytes(of: webimage_decode_options(request)),
            generation: generation,
            deadline: request.deadline
        ) { reply, claim in try coder.adopt(reply, claim, operation: operation, request: request) }
    }
}
