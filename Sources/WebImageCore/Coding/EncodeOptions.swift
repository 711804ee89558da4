/// How a user wants an image encoded (the options of ``CodersManager/encode(_:options:)``).
public struct EncodeOptions: Sendable {
    /// Output format name, for example `jpeg`.
    public var format: String
    /// 0.0 (smallest) ... 1.0 (best). Default 0.9.
    public var quality: Double = 0.9
    /// Shrink to fit this box first (aspect ratio kept, never enlarged). Default nil.
    public var maxPixelSize: (width: Int, height: Int)?
    /// Colour under transparent pixels for formats without alpha, 0xRRGGBBAA. Default opaque white.
    public var backgroundColor: UInt32 = 0xFFFF_FFFF
    /// Lossless compression where the format offers it. Default false.
    public var lossless = false
    /// Animations: how often to play, 0 = forever. Default 0.
    public var loopCount = 0

    public init(
        format: String, quality: Double = 0.9, maxPixelSize: (width: Int, height: Int)? = nil,
        backgroundColor: UInt32 = 0xFFFF_FFFF, lossless: Bool = false, loopCount: Int = 0
    ) {
        self.format = format
        self.quality = quality
        self.maxPixelSize = maxPixelSize
        self.backgroundColor = backgroundColor
        self.lossless = lossless
        self.loopCount = loopCount
    }

    /// The low-level request for `format`.
    func request(format: String) -> EncodeRequest {
        EncodeRequest(
            format: format, quality: quality, backgroundColor: backgroundColor, lossless: lossless, loopCount: loopCount
        )
    }

    /// `pixels` shrunk to fit ``maxPixelSize`` (the same buffer when it already fits).
    func fitted(_ pixels: PixelBuffer) throws -> PixelBuffer {
        guard let box = maxPixelSize else { return pixels }
        let target = ThumbnailSize(width: box.width, height: box.height)
            .targetSize(sourceWidth: pixels.width, sourceHeight: pixels.height)
        guard target != (pixels.width, pixels.height) else { return pixels }
        return try ImageResizer.resize(pixels, width: target.width, height: target.height)
    }
}
