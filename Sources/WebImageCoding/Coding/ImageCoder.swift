/// Decodes and encodes one or more image formats.
///
/// Plugins loaded from shared objects are adapted to this protocol, and host apps can
/// register their own Swift coders in-process through it (see
/// ``CodersManager/register(_:priority:signatures:extensions:)``).
/// Every method may be called from several threads at once.
public protocol ImageCoder: Sendable {
    /// The formats this coder handles; the first is its main format.
    var formats: [ImageFormat] { get }

    /// True when `bytes` (the first bytes of a file, possibly all of it) look like a
    /// format of this coder. Never throws, never reads past `bytes`.
    func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool

    /// `canDecode`, or why this coder could not answer: a coder whose plugin runs in a worker
    /// process throws the worker's failure (it could not start, crashed or was disabled), so
    /// that the coders manager can name it instead of saying that no coder recognises the
    /// bytes. The default calls `canDecode` and never throws.
    /// - Throws: ``ImageCodingError`` or ``PluginFault``.
    func answerCanDecode(_ bytes: UnsafeRawBufferPointer) throws -> Bool

    /// Reads the header only.
    /// - Throws: ``ImageCodingError``.
    func probe(_ bytes: UnsafeRawBufferPointer) throws -> ImageInfo

    /// Decodes the whole image (the first frame of an animation).
    ///
    /// A file that ends early throws `.truncatedData`; only incremental decoding shows
    /// partial images.
    /// - Throws: ``ImageCodingError``.
    func decode(_ bytes: UnsafeRawBufferPointer, request: DecodeRequest) throws -> DecodedImage

    /// Encodes one image in `request.format`; the bytes are handed over without a copy.
    /// - Throws: ``ImageCodingError``, `.unsupportedOperation` when the coder cannot encode.
    func encode(_ image: PixelBuffer, request: EncodeRequest) throws -> EncodedImageData
}

/// A coder that can show images while their bytes arrive.
public protocol ProgressiveImageCoder: ImageCoder {
    /// Starts an incremental decode; `request` applies to every image it returns.
    /// - Throws: ``ImageCodingError``.
    func makeIncrementalDecoder(request: DecodeRequest) throws -> any IncrementalImageDecoder
}

/// State of one incremental decode. Not thread-safe: use from one task at a time.
public protocol IncrementalImageDecoder: AnyObject {
    /// Appends the next bytes of the file; `isFinal` says no more will come.
    /// - Throws: ``ImageCodingError`` for corrupt data.
    func append(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws

    /// The best image so far (trait `.partial` until complete), or nil when nothing can
    /// be shown yet.
    /// - Throws: ``ImageCodingError``.
    func currentImage() throws -> DecodedImage?
}

/// A coder for animated images: frames are decoded lazily, one fully composited canvas each.
public protocol AnimatedImageCoder: ImageCoder {
    /// Opens an animation; the returned source keeps what it needs of `bytes`.
    /// - Throws: ``ImageCodingError``.
    func openAnimation(_ bytes: [UInt8]) throws -> any AnimatedImageSource

    /// Opens an animation over `bytes` the caller keeps valid and unchanged until the
    /// returned source is released (the plugin ABI's `animation_open` promises this), so a
    /// coder can read the file in place. The default copies them for ``openAnimation(_:)``.
    /// - Throws: ``ImageCodingError``.
    func openAnimation(reading bytes: UnsafeRawBufferPointer) throws -> any AnimatedImageSource

    /// Encodes frames (with their durations) as one animation; the bytes are handed over
    /// without a copy.
    /// - Throws: ``ImageCodingError``, `.unsupportedOperation` when the coder cannot.
    func encodeAnimation(_ frames: [AnimationFrame], request: EncodeRequest) throws -> EncodedImageData
}

extension AnimatedImageCoder {
    public func openAnimation(reading bytes: UnsafeRawBufferPointer) throws -> any AnimatedImageSource {
        try openAnimation(Array(bytes))
    }
}

/// One frame of an animation to encode.
public struct AnimationFrame: Sendable {
    public var image: PixelBuffer
    /// How long the frame shows, in milliseconds.
    public var durationMilliseconds: Int

    public init(image: PixelBuffer, durationMilliseconds: Int) {
        self.image = image
        self.durationMilliseconds = durationMilliseconds
    }
}

/// An open animated image.
public protocol AnimatedImageSource: AnyObject {
    var info: ImageInfo { get }
    /// Duration of frame `index` in milliseconds.
    func frameDuration(at index: Int) -> Int
    /// The fully composited canvas of frame `index`.
    /// - Throws: ``ImageCodingError``.
    func decodeFrame(at index: Int, request: DecodeRequest) throws -> DecodedImage
}

extension ImageCoder {
    public func answerCanDecode(_ bytes: UnsafeRawBufferPointer) throws -> Bool { canDecode(bytes) }

    /// The format with `name`, if this coder handles it.
    public func format(named name: String) -> ImageFormat? {
        formats.first { $0.name == name }
    }
}
