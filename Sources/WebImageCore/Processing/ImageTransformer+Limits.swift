/// Transforms checked against ``TransformLimits`` before anything is allocated.
extension ImageTransformer {
    /// The footprint of transforming a `width` × `height` image in `format`.
    /// - Throws: ``ImageTransformError`` `.tooLarge` when it is over `limits.maxByteCount`.
    public func checkedFootprint(
        width: Int, height: Int, format: PixelFormat, limits: TransformLimits
    ) throws(ImageTransformError) -> TransformFootprint {
        let footprint = footprint(width: width, height: height, format: format)
        if limits.maxByteCount > 0 && footprint.byteCount > limits.maxByteCount {
            throw tooLarge(
                width: width, height: height, needs: footprint.byteCount, limit: "\(limits.maxByteCount) bytes")
        }
        return footprint
    }

    /// Checks transforming every frame of an animation of `frameCount` frames of `width` ×
    /// `height` pixels: each frame within `limits.maxByteCount`, and every output frame
    /// together with one frame's scratch within `limits.maxAnimationByteCount`.
    /// - Throws: ``ImageTransformError`` `.tooLarge`.
    public func checkAnimation(
        frameCount: Int, width: Int, height: Int, format: PixelFormat, limits: TransformLimits
    ) throws(ImageTransformError) {
        let footprint = try checkedFootprint(width: width, height: height, format: format, limits: limits)
        guard limits.maxAnimationByteCount > 0 else { return }
        let frame = TransformFootprint.bytes(
            width: footprint.width, height: footprint.height, bytesPerPixel: format.bytesPerPixel)
        // An unchanged frame allocates nothing; otherwise every output frame is kept and one
        // frame's scratch is held besides them.
        let held =
            footprint.byteCount == 0
            ? 0
            : TransformFootprint.sum(
                TransformFootprint.times(frame, frameCount),
                footprint.byteCount == Int.max ? Int.max : footprint.byteCount - min(frame, footprint.byteCount))
        if held > limits.maxAnimationByteCount {
            throw ImageTransformError(
                .tooLarge,
                "animation too large: transforming \(frameCount) frames of \(width)×\(height) pixels with "
                    + "\(transformerKey) holds \(Self.count(held)) bytes, over the limit of "
                    + "\(limits.maxAnimationByteCount) bytes")
        }
    }

    /// ``transform(_:)`` after checking its footprint against `limits` and while holding
    /// it in `limits.concurrentBudget` (waiting while other jobs hold too much of it).
    /// - Throws: ``ImageTransformError`` `.tooLarge` before anything is allocated when the
    ///   footprint is over the byte limit or the whole concurrent budget.
    public func transform(_ image: PixelBuffer, limits: TransformLimits) throws(ImageTransformError) -> PixelBuffer {
        let footprint = try checkedFootprint(
            width: image.width, height: image.height, format: image.format, limits: limits)
        guard let budget = limits.concurrentBudget else { return try transform(image) }
        let overBudget = tooLarge(
            width: image.width, height: image.height, needs: footprint.byteCount,
            limit:
                "\(budget.byteCount) bytes for everything running at once (\(ConcurrentByteBudget.environmentVariable))"
        )
        return try budget.withReservation(footprint.byteCount, orThrow: overBudget) { () throws(ImageTransformError) in
            try transform(image)
        }
    }

    /// ``transform(_:)-(DecodedImage)`` checked against `limits`, as ``transform(_:limits:)``.
    /// - Throws: ``ImageTransformError``.
    public func transform(_ image: DecodedImage, limits: TransformLimits) throws(ImageTransformError) -> DecodedImage {
        try transformUpright(image) { upright throws(ImageTransformError) in try transform(upright, limits: limits) }
    }

    /// ``transformEveryFrame(of:)`` checked before the first frame: each frame against
    /// `limits.maxByteCount`, every output frame together against `limits.maxAnimationByteCount`.
    /// - Throws: ``ImageTransformError``.
    public func transformEveryFrame(
        of animation: DecodedAnimation, limits: TransformLimits
    ) throws(ImageTransformError) -> DecodedAnimation {
        if let first = animation.frames.first?.image {
            try checkAnimation(
                frameCount: animation.frames.count, width: first.width, height: first.height, format: first.format,
                limits: limits)
        }
        return try mapFrames(of: animation) { frame throws(ImageTransformError) in
            try transform(frame, limits: limits)
        }
    }

    /// The `.tooLarge` error of a transform that needs `bytes` over `limit`.
    private func tooLarge(width: Int, height: Int, needs bytes: Int, limit: String) -> ImageTransformError {
        ImageTransformError(
            .tooLarge,
            "image too large: transforming \(width)×\(height) pixels with \(transformerKey) needs "
                + "\(Self.count(bytes)) bytes, over the limit of \(limit)")
    }

    /// A byte count for people: `more than Int.max` when it overflowed.
    private static func count(_ bytes: Int) -> String {
        bytes == Int.max ? "more than \(Int.max)" : "\(bytes)"
    }
}
