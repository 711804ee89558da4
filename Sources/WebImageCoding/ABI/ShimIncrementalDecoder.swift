import CWebImagePlugin

/// What a shim's incremental decoder has drawn so far.
public struct ShimCanvas {
    /// The canvas rows (rows not yet decoded are zero), or nil until the header has been read.
    public var pixels: UnsafeRawPointer?
    /// Bytes from one row of `pixels` to the next.
    public var stride: Int
    /// The header: format name, size, orientation and traits of the image.
    public var info: ImageInfo
    /// The format of `pixels`.
    public var format: PixelFormat
    /// True once the whole image has been decoded.
    public var isComplete: Bool

    public init(pixels: UnsafeRawPointer?, stride: Int, info: ImageInfo, format: PixelFormat, isComplete: Bool) {
        self.pixels = pixels
        self.stride = stride
        self.info = info
        self.format = format
        self.isComplete = isComplete
    }
}

/// An incremental decode kept in a C shim's state and driven through the shim's append,
/// canvas and destroy functions: each appended run of bytes goes to the shim, and the image
/// so far is a copy of its canvas (trait `.partial` until complete).
public final class ShimIncrementalDecoder: IncrementalImageDecoder {
    /// A shim's append function: state, bytes, byte count, whether they are the last.
    public typealias Append = (OpaquePointer, UnsafePointer<UInt8>?, Int, Bool, inout webimage_error) -> webimage_status

    private let state: OpaquePointer
    private let request: DecodeRequest
    private let call: ShimCall
    private let appendBytes: Append
    private let readCanvas: (OpaquePointer) -> ShimCanvas
    private let destroy: (OpaquePointer) -> Void

    /// Takes ownership of `state` (released with `destroy`); failures read as `call` words them.
    public init(
        state: OpaquePointer, request: DecodeRequest, call: ShimCall, append: @escaping Append,
        canvas: @escaping (OpaquePointer) -> ShimCanvas, destroy: @escaping (OpaquePointer) -> Void
    ) {
        self.state = state
        self.request = request
        self.call = call
        self.appendBytes = append
        self.readCanvas = canvas
        self.destroy = destroy
    }

    deinit { destroy(state) }

    public func append(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws {
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        try call.run { appendBytes(state, base, bytes.count, isFinal, &$0) }
    }

    public func currentImage() throws -> DecodedImage? {
        let canvas = readCanvas(state)
        guard let source = canvas.pixels else { return nil }
        let info = canvas.info
        let pixels = try request.makeBuffer(
            copying: source, stride: canvas.stride, width: info.width, height: info.height, format: canvas.format)
        var traits = info.traits
        if !canvas.isComplete { traits.insert(.partial) }
        return DecodedImage(
            pixels: pixels, format: info.format, orientation: info.orientation, sourceWidth: info.width,
            sourceHeight: info.height, traits: traits)
    }
}
