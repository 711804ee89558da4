/// How a user wants an image decoded (the options of ``CodersManager/decode(_:options:)``).
///
/// The limits protect against hostile headers: each is checked against what a header
/// declares before anything that size is allocated, and fails with `.tooLarge` (the time
/// limit with `.timedOut`), never with "out of memory".
public struct DecodeOptions: Sendable {
    /// The default pixel limit: 100 megapixels.
    public static let defaultMaxPixelCount = 100_000_000
    /// The default byte limit of one decode: 1 GiB (a full decode at the default pixel limit
    /// in RGBA16 is 800 MB, plus the decoder's rows).
    public static let defaultMaxByteCount = 1 << 30
    /// The default frame limit of an animation: 5,000 frames.
    public static let defaultMaxFrameCount = 5_000
    /// The default budget for the frames an animation decode holds at once: 512 MiB.
    public static let defaultMaxAnimationByteCount = 512 << 20
    /// The default time limit of one decode (an animation's frames together): 30 seconds.
    public static let defaultTimeLimit = Duration.seconds(30)

    /// Preferred output; RGBA16 is kept only for sources deeper than 8 bits. Default RGBA8.
    public var pixelFormat: PixelFormat = .rgba8
    /// Decode to a thumbnail instead of full size. Default nil (full size).
    public var thumbnail: ThumbnailSize?
    /// Turn the pixels upright according to EXIF orientation. Default true.
    public var appliesOrientation = true
    /// Largest image (width × height pixels) a decode may allocate; bigger images throw
    /// `.tooLarge`. Thumbnails of larger images still work when the coder can scale while
    /// decoding within ``maxByteCount``. 0 = no limit. Default ``defaultMaxPixelCount``.
    public var maxPixelCount = DecodeOptions.defaultMaxPixelCount
    /// The most bytes one decode may allocate in total: the output and the coder's own
    /// buffers (rows, coefficient planes, canvases). 0 = no limit. Default
    /// ``defaultMaxByteCount`` (1 GiB).
    public var maxByteCount = DecodeOptions.defaultMaxByteCount
    /// The most frames an animation may have to be decoded; more throw `.tooLarge` before
    /// the first frame. 0 = no limit. Default ``defaultMaxFrameCount`` (5,000).
    public var maxFrameCount = DecodeOptions.defaultMaxFrameCount
    /// The most bytes the frames of an animation decode may hold at once, counted at 4 bytes
    /// a pixel: for one frame at a time (``CodersManager/decodeFrame(_:of:options:)``) the
    /// coder's full-size canvas and the frame handed out (2 canvases, plus the thumbnail);
    /// for ``CodersManager/decodeAllFrames(of:options:)`` every output frame and the
    /// canvas. Over it throws `.tooLarge` before the first frame. 0 = no limit. Default
    /// ``defaultMaxAnimationByteCount`` (512 MiB).
    public var maxAnimationByteCount = DecodeOptions.defaultMaxAnimationByteCount
    /// How long one decode may take (all the frames of an animation together); after it the
    /// work stops with `.timedOut`: checked before every frame, after a still decode and in the
    /// thumbnail resize that follows, by
    /// the bundled coders' frame loops, and every 64 rows by PNG's row-streamed thumbnails and
    /// JPEG's scanline loop.
    /// nil = no limit. Default ``defaultTimeLimit`` (30 s).
    public var timeLimit: Duration? = DecodeOptions.defaultTimeLimit
    /// A deadline shared by several calls (a conversion that decodes frame by frame); when
    /// set it replaces ``timeLimit``. Default nil.
    public var deadline: DecodeDeadline?
    /// Decode only the first frame of an animation. Default false.
    public var firstFrameOnly = false
    /// The budget shared by the decodes and transforms running at once in the process: a
    /// still decode holds its full-size output at the requested pixel format (at most
    /// ``maxByteCount``) of it while it runs, waiting while others hold too much. nil = none.
    /// Default ``ConcurrentByteBudget/shared``.
    public var concurrentBudget: ConcurrentByteBudget? = .shared
    /// The media type the bytes were served as (the response's `Content-Type` without
    /// parameters), named in the error when no coder decodes them; it never chooses the
    /// coder. Default nil.
    public var servedContentType: String?

    public init(
        pixelFormat: PixelFormat = .rgba8, thumbnail: ThumbnailSize? = nil, appliesOrientation: Bool = true,
        maxPixelCount: Int = DecodeOptions.defaultMaxPixelCount, firstFrameOnly: Bool = false
    ) {
        self.pixelFormat = pixelFormat
        self.thumbnail = thumbnail
        self.appliesOrientation = appliesOrientation
        self.maxPixelCount = maxPixelCount
        self.firstFrameOnly = firstFrameOnly
    }

    /// These options with the limits of `webimage convert`'s flags: pixels, bytes, frames and
    /// animation bytes as given (0: no limit), and `seconds` as the time limit (0: none),
    /// rounded up to the millisecond.
    public func limited(pixels: Int, bytes: Int, frames: Int, animationBytes: Int, seconds: Double) -> DecodeOptions {
        var options = self
        options.maxPixelCount = pixels
        options.maxByteCount = bytes
        options.maxFrameCount = frames
        options.maxAnimationByteCount = animationBytes
        options.timeLimit = seconds == 0 ? nil : .milliseconds(Int64((seconds * 1000).rounded(.up)))
        return options
    }

    /// ``deadline``, else a deadline ``timeLimit`` from now, else nil.
    public func startDeadline() -> DecodeDeadline? {
        deadline ?? timeLimit.map { DecodeDeadline.after($0) }
    }

    /// These options with ``deadline`` fixed from now, for work made of several calls.
    public func withDeadlineStarted() -> DecodeOptions {
        var options = self
        options.deadline = startDeadline()
        return options
    }

    /// The coder request for these options (no thumbnail box: the manager computes it).
    public func request(deadline: DecodeDeadline?) -> DecodeRequest {
        var request = DecodeRequest(
            pixelFormat: pixelFormat, maxPixelCount: maxPixelCount, firstFrameOnly: firstFrameOnly)
        request.maxByteCount = maxByteCount
        request.deadline = deadline
        return request
    }
}
