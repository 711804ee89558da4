/// Several transformers applied in order, itself a transformer.
///
/// Its key is the keys of its transformers joined with `-`, in order (an empty pipeline
/// has the empty key and returns its input).
public struct TransformerPipeline: ImageTransformer {
    public let transformers: [any ImageTransformer]

    public init(_ transformers: [any ImageTransformer]) {
        self.transformers = transformers
    }

    public var transformerKey: String {
        transformers.map(\.transformerKey).joined(separator: "-")
    }

    /// The last stage's output size; the bytes the most expensive stage holds at once: its
    /// own footprint and the previous stage's output it reads (the pipeline's input is the
    /// caller's and not counted).
    public func footprint(width: Int, height: Int, format: PixelFormat) -> TransformFootprint {
        var current = TransformFootprint.unchanged(width: width, height: height)
        var peak = 0
        var heldInput = 0
        for transformer in transformers {
            let stage = transformer.footprint(width: current.width, height: current.height, format: format)
            peak = max(peak, TransformFootprint.sum(heldInput, stage.byteCount))
            if stage.byteCount > 0 {
                heldInput = TransformFootprint.bytes(
                    width: stage.width, height: stage.height, bytesPerPixel: format.bytesPerPixel)
            }
            current = stage
        }
        return TransformFootprint(width: current.width, height: current.height, byteCount: peak)
    }

    public func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        var current = image
        for transformer in transformers { current = try transformer.transform(current) }
        return current
    }
}
