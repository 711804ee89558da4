extension ImageTransformer {
    /// Transforms a decoded image as it is shown: any orientation still pending is applied
    /// first, so the result's orientation is `.up`. Format, source size and traits are kept.
    /// - Throws: ``ImageTransformError``.
    public func transform(_ image: DecodedImage) throws(ImageTransformError) -> DecodedImage {
        try transformUpright(image) { upright throws(ImageTransformError) in try transform(upright) }
    }

    /// `image` with any pending orientation applied, passed through `body`; format, source
    /// size and traits kept, orientation `.up`.
    func transformUpright(
        _ image: DecodedImage, _ body: (PixelBuffer) throws(ImageTransformError) -> PixelBuffer
    ) throws(ImageTransformError) -> DecodedImage {
        let upright = try TransformCanvas.allocating {
            try OrientationTransform.apply(image.orientation, to: image.pixels)
        }
        return DecodedImage(
            pixels: try body(upright), format: image.format, orientation: .up,
            sourceWidth: image.sourceWidth, sourceHeight: image.sourceHeight, traits: image.traits)
    }
}
