import CWebImagePlugin

/// An animation that an isolated plugin encodes frame by frame in its worker
/// (`animation_encoder_*`): each frame's pixels go through a shared block for the one
/// `animationEncoderAdd` request, and the finished file comes back in a block the worker's
/// plugin allocated, as ``IsolatedCoder/encode(_:request:)`` returns it.
///
/// The encoder's state lives in the worker that created it: after a crash or a timeout (the
/// worker is restarted), every later call fails with `.internalError`, as an isolated
/// incremental decode does.
final class IsolatedAnimationEncoder: AnimationFrameEncoder {
    private let coder: IsolatedCoder
    private let handle: UInt64
    private let generation: UInt64
    private let width: Int
    private let height: Int
    private static let operation = "encode animation"

    init(coder: IsolatedCoder, width: Int, height: Int, frameCount: Int, request: EncodeRequest) throws {
        guard width > 0, height > 0, frameCount > 0, let width32 = UInt32(exactly: width),
            let height32 = UInt32(exactly: height)
        else {
            throw ImageCodingError(
                .invalidArgument, "cannot encode \(frameCount) frames of \(width)×\(height) pixels frame by frame")
        }
        var frame = WorkerFrame(.animationEncoderCreate)
        frame.index = UInt64(width32) | UInt64(height32) << 32
        frame.count = UInt64(frameCount)
        let options = webimage_encode_options(request, formats: coder.formats)
        let created = try coder.plugin.request(
            Self.operation, frame, payload: IsolatedCoder.bytes(of: options)
        ) { reply, claim in
            try IsolatedCoder.check(reply, operation: Self.operation)
            return (reply.frame.handle, claim.generation)
        }
        self.coder = coder
        self.handle = created.0
        self.generation = created.1
        self.width = width
        self.height = height
    }

    deinit {
        var frame = WorkerFrame(.animationEncoderDestroy)
        frame.handle = handle
        coder.plugin.release("destroy animation encoder", frame, generation: generation)
    }

    func add(_ frame: AnimationFrame) throws {
        let image = frame.image
        guard image.width == width, image.height == height else {
            throw ImageCodingError(
                .invalidArgument,
                "frame of \(image.width)×\(image.height) pixels in an animation of \(width)×\(height) pixels")
        }
        let viewSize = (MemoryLayout<WorkerImageView>.stride + 63) / 64 * 64
        let rowBytes = image.width * image.format.bytesPerPixel
        let (pixelBytes, overflow) = rowBytes.multipliedReportingOverflow(by: image.height)
        guard !overflow, pixelBytes <= Int.max - viewSize else {
            throw ImageCodingError(.tooLarge, "the frame does not fit in memory")
        }
        let block = try coder.plugin.pool.take(viewSize + pixelBytes)
        defer { coder.plugin.pool.give(block) }
        for y in 0..<image.height {
            (block.base + viewSize + y * rowBytes).copyMemory(from: image.row(y), byteCount: rowBytes)
        }
        let view = WorkerImageView(
            width: UInt32(image.width), height: UInt32(image.height), pixelFormat: image.format.rawValue,
            durationMilliseconds: UInt32(clamping: max(0, frame.durationMilliseconds)), stride: UInt64(rowBytes),
            block: block.id, offset: UInt64(viewSize))
        block.base.storeBytes(of: view, as: WorkerImageView.self)
        var request = WorkerFrame(.animationEncoderAdd)
        request.handle = handle
        request.block = block.id
        request.offset = 0
        try coder.plugin.request(Self.operation, request, sharing: [block], generation: generation) { reply, _ in
            try IsolatedCoder.check(reply, operation: Self.operation)
        }
    }

    func finish() throws -> EncodedImageData {
        var request = WorkerFrame(.animationEncoderFinish)
        request.handle = handle
        return try coder.plugin.request(Self.operation, request, generation: generation) { reply, claim in
            try coder.encodedBytes(reply, claim, operation: Self.operation)
        }
    }
}

extension IsolatedCoder: StreamingAnimationCoder {
    /// True when the plugin's table has the `animation_encoder_*` functions and serves
    /// `format`: the frames then go to the worker one at a time.
    public func encodesAnimationFrameByFrame(format: String) -> Bool {
        opened.animationEncoder && formats.contains { $0.name == format }
    }

    /// The plugin's frame-by-frame encoder, running in its worker.
    /// - Throws: ``ImageCodingError``: `.unsupportedOperation` when the plugin has no
    ///   frame-by-frame encoder; `.pluginCrashed`, `.timedOut` or `.pluginDisabled` from the worker.
    public func makeAnimationEncoder(width: Int, height: Int, frameCount: Int, request: EncodeRequest) throws
        -> any AnimationFrameEncoder
    {
        guard opened.animationEncoder else {
            throw ImageCodingError(
                .unsupportedOperation, "plugin '\(pluginName)' cannot encode animations frame by frame")
        }
        return try IsolatedAnimationEncoder(
            coder: self, width: width, height: height, frameCount: frameCount, request: request)
    }
}
