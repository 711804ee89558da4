/// Pixels from a decoder with what is known about where they came from.
public struct DecodedImage: Sendable {
    public var pixels: PixelBuffer
    /// The format's name, for example `png`.
    public var format: String
    /// Orientation still to apply to `pixels`; `.up` once applied.
    public var orientation: ImageOrientation
    /// Stored size of the source image before any thumbnail scaling, in pixels.
    public var sourceWidth: Int
    public var sourceHeight: Int
    public var traits: ImageInfo.Traits

    public init(
        pixels: PixelBuffer, format: String, orientation: ImageOrientation = .up,
        sourceWidth: Int? = nil, sourceHeight: Int? = nil, traits: ImageInfo.Traits = []
    ) {
        self.pixels = pixels
        self.format = format
        self.orientation = orientation
        self.sourceWidth = sourceWidth ?? pixels.width
        self.sourceHeight = sourceHeight ?? pixels.height
        self.traits = traits
    }

    public var width: Int { pixels.width }
    public var height: Int { pixels.height }
    /// True while an incremental decode has not seen the whole image.
    public var isPartial: Bool { traits.contains(.partial) }
    /// Bytes of decoded pixels this image holds (for memory caches).
    public var memoryCost: Int { pixels.bytesPerRow * pixels.height }
}
