/// Tints an image with a colour, composited source-atop (as SDWebImage's tint): each
/// pixel's colour moves towards the tint by the tint's alpha and keeps its own alpha, so
/// transparent pixels stay transparent.
///
/// Key: `Tint(#RRGGBBAA)`, for example `Tint(#FF000080)`.
public struct TintTransformer: ImageTransformer {
    public let color: RGBAColor

    public init(color: RGBAColor) {
        self.color = color
    }

    public var transformerKey: String { "Tint(\(color))" }

    public func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        let output = try TransformCanvas.make(width: image.width, height: image.height, like: image)
        switch image.format {
        case .rgba8: tint(image, into: output, channel: UInt8.self)
        case .rgba16: tint(image, into: output, channel: UInt16.self)
        }
        return output
    }

    /// colour = tint × tα + colour × (1 − tα), rounded to nearest; alpha unchanged.
    @_specialize(where Channel == UInt8)
    @_specialize(where Channel == UInt16)
    private func tint<Channel: FixedWidthInteger & UnsignedInteger>(
        _ source: PixelBuffer, into output: PixelBuffer, channel: Channel.Type
    ) {
        let tint = color.channels(maxValue: Float(Channel.max))
        let coverage = tint.w / Float(Channel.max)
        let added = tint * coverage
        let kept = 1 - coverage
        for y in 0..<source.height {
            let sourceRow = source.row(y).assumingMemoryBound(to: Channel.self)
            let outputRow = output.row(y).assumingMemoryBound(to: Channel.self)
            for x in 0..<source.width {
                let pixel = sourceRow + x * 4
                let result = outputRow + x * 4
                let alpha = pixel[3]
                guard alpha != 0 else {
                    result.update(from: pixel, count: 4)
                    continue
                }
                let straight = SIMD4(Float(pixel[0]), Float(pixel[1]), Float(pixel[2]), 0)
                let mixed = straight * kept + added + 0.5
                result[0] = Channel(truncatingIfNeeded: UInt32(mixed[0]))
                result[1] = Channel(truncatingIfNeeded: UInt32(mixed[1]))
                result[2] = Channel(truncatingIfNeeded: UInt32(mixed[2]))
                result[3] = alpha
            }
        }
    }
}
