import WebImageCore

/// Resizes an image as imgproxy's `resize` does, to a size that depends on the image's own
/// (``ResizeGeometry``): the work is a ``ResizingTransformer``, stretching to the scaled size
/// or, when the result is a centred cut of it, covering the cut (which scales and cuts the
/// overhang at once). `extend` is not part of it (a ``PaddingTransformer`` follows).
///
/// Key: `ImgproxyResize(TYPE,WxH)`, with `,enlarge` when it enlarges, for example
/// `ImgproxyResize(fill-down,300x0)`.
struct ImgproxyResizingTransformer: ImageTransformer {
    /// The resize; its `extends` is not used.
    let resize: ResizeOptions

    var transformerKey: String {
        "ImgproxyResize(\(resize.type.rawValue),\(resize.width)x\(resize.height)\(resize.enlarges ? ",enlarge" : ""))"
    }

    /// The resizing transformer that does the work for a `width` × `height` image.
    private func resizer(width: Int, height: Int) throws(ImageTransformError) -> ResizingTransformer {
        let geometry = ResizeGeometry(resize, sourceWidth: width, sourceHeight: height)
        if (geometry.width, geometry.height) == (geometry.scaledWidth, geometry.scaledHeight) {
            return try ResizingTransformer(width: geometry.width, height: geometry.height, scaleMode: .fill)
        }
        // Only a uniform scale leaves an overhang, so covering the cut scales as the geometry does.
        return try ResizingTransformer(width: geometry.width, height: geometry.height, scaleMode: .aspectFill)
    }

    func footprint(width: Int, height: Int, format: PixelFormat) -> TransformFootprint {
        guard width > 0, height > 0, let resizer = try? resizer(width: width, height: height) else {
            return .unchanged(width: width, height: height)
        }
        return resizer.footprint(width: width, height: height, format: format)
    }

    func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer {
        guard image.width > 0, image.height > 0 else { return image }
        return try resizer(width: image.width, height: image.height).transform(image)
    }
}
