/// What an image's header says, read without decoding its pixels.
public struct ImageInfo: Sendable, Equatable {
    /// Facts about the stored image.
    public struct Traits: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let hasAlpha = Traits(rawValue: 1 << 0)
        public static let animated = Traits(rawValue: 1 << 1)
        public static let progressive = Traits(rawValue: 1 << 2)
        public static let interlaced = Traits(rawValue: 1 << 3)
        /// Pixels of an unfinished image (incremental decoding).
        public static let partial = Traits(rawValue: 1 << 4)
        public static let grayscale = Traits(rawValue: 1 << 5)
        public static let indexed = Traits(rawValue: 1 << 6)
        public static let cmyk = Traits(rawValue: 1 << 7)
    }

    /// The format's name, for example `jpeg`.
    public var format: String
    /// Stored width in pixels, before EXIF orientation.
    public var width: Int
    /// Stored height in pixels, before EXIF orientation.
    public var height: Int
    /// 1 for a still image.
    public var frameCount: Int
    /// How often an animation plays; 0 = forever.
    public var loopCount: Int
    public var orientation: ImageOrientation
    /// Bits per colour channel in the file.
    public var bitsPerComponent: Int
    public var traits: Traits

    public init(
        format: String, width: Int, height: Int, frameCount: Int = 1, loopCount: Int = 0,
        orientation: ImageOrientation = .up, bitsPerComponent: Int = 8, traits: Traits = []
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.loopCount = loopCount
        self.orientation = orientation
        self.bitsPerComponent = bitsPerComponent
        self.traits = traits
    }

    /// Width as shown, after EXIF orientation.
    public var orientedWidth: Int { orientation.swapsWidthAndHeight ? height : width }
    /// Height as shown, after EXIF orientation.
    public var orientedHeight: Int { orientation.swapsWidthAndHeight ? width : height }
}
