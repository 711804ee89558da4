/// Turns one decoded image into another after decoding and before caching, as
/// SDWebImage's `SDImageTransformer` does (round corners, blur, resize, ...).
///
/// Conforming types are immutable values: a transformer may run on any thread and on
/// several images at once. `transform` never modifies its input (which the caller may have
/// cached) and handles RGBA8 and RGBA16 with straight alpha; filters that mix pixels work
/// in premultiplied space so transparent pixels never darken visible ones.
public protocol ImageTransformer: Sendable {
    /// Names the transformation and its parameters, for example `Blur(10)`.
    ///
    /// It is appended to cache keys (see ``CacheKeys/transformedKey(_:transformerKey:)``), so it is stable across
    /// runs and differs whenever the output would.
    var transformerKey: String { get }

    /// Returns the transformed pixels in the same pixel format; may return `image` itself
    /// when the transformation changes nothing.
    /// - Throws: ``ImageTransformError``.
    func transform(_ image: PixelBuffer) throws(ImageTransformError) -> PixelBuffer

    /// What ``transform(_:)`` allocates for a `width` × `height` input in `format`: the
    /// output's size and the bytes of its output and scratch buffers held at once, so a
    /// caller can refuse it before it allocates (``transform(_:limits:)``). Default: an
    /// output of the input's size and no scratch.
    func footprint(width: Int, height: Int, format: PixelFormat) -> TransformFootprint
}

extension ImageTransformer {
    public func footprint(width: Int, height: Int, format: PixelFormat) -> TransformFootprint {
        .output(width: width, height: height, format: format)
    }
}
