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

    public func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        var current = image
        for transformer in transformers { current = try transformer.transform(current) }
        return current
    }
}
