/// What a coder is asked to encode.
public struct EncodeRequest: Sendable {
    /// Name of the output format, for example `jpeg`.
    public var format: String
    /// 0.0 (smallest) ... 1.0 (best). Default 0.9. Formats without a quality setting ignore it.
    public var quality: Double = 0.9
    /// Colour under transparent pixels for formats without alpha, 0xRRGGBBAA. Default opaque white.
    public var backgroundColor: UInt32 = 0xFFFF_FFFF
    /// Ask for lossless compression where the format offers it. Default false.
    public var lossless = false
    /// Animations: how often to play, 0 = forever. Default 0.
    public var loopCount = 0
    /// Where the encoded bytes are allocated: coders whose library lets them choose write
    /// straight into it. Default ``PixelAllocator/system``; a plugin's is the host's.
    public var allocator: PixelAllocator = .system

    public init(
        format: String, quality: Double = 0.9, backgroundColor: UInt32 = 0xFFFF_FFFF, lossless: Bool = false,
        loopCount: Int = 0, allocator: PixelAllocator = .system
    ) {
        self.format = format
        self.quality = quality
        self.backgroundColor = backgroundColor
        self.lossless = lossless
        self.loopCount = loopCount
        self.allocator = allocator
    }
}
