/// How a user wants an image decoded (the options of ``CodersManager/decode(_:options:)``).
public struct DecodeOptions: Sendable {
    /// The default pixel limit: 100 megapixels.
    public static let defaultMaxPixelCount = 100_000_000

    /// Preferred output; RGBA16 is kept only for sources deeper than 8 bits. Default RGBA8.
    public var pixelFormat: PixelFormat = .rgba8
    /// Decode to a thumbnail instead of full size. Default nil (full size).
    public var thumbnail: ThumbnailSize?
    /// Turn the pixels upright according to EXIF orientation. Default true.
    public var appliesOrientation = true
    /// Largest image (width × height pixels) a decode may allocate; bigger images throw
    /// `.tooLarge`. Thumbnails of larger images still work when the coder can scale while
    /// decoding. Default ``defaultMaxPixelCount``.
    public var maxPixelCount = DecodeOptions.defaultMaxPixelCount
    /// Decode only the first frame of an animation. Default false.
    public var firstFrameOnly = false

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
}
