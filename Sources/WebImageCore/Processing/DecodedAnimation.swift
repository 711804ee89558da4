/// Every frame of an animation, decoded (fully composited canvases), with its loop count:
/// what transformers work on when they apply to animations.
public struct DecodedAnimation: Sendable {
    public var frames: [AnimationFrame]
    /// How many times the animation plays; 0 = forever.
    public var loopCount: Int

    public init(frames: [AnimationFrame], loopCount: Int) {
        self.frames = frames
        self.loopCount = loopCount
    }

    /// True with more than one frame; a one-frame animation is treated as a still image.
    public var isAnimated: Bool { frames.count > 1 }
}

extension ImageTransformer {
    /// Transforms every frame, keeping each frame's duration and the loop count.
    /// - Throws: ``ImageTransformError`` from the first frame that fails.
    public func transformEveryFrame(of animation: DecodedAnimation) throws(ImageTransformError) -> DecodedAnimation {
        try mapFrames(of: animation) { frame throws(ImageTransformError) in try transform(frame) }
    }

    /// Every frame of `animation` through `body`, keeping durations and the loop count.
    func mapFrames(
        of animation: DecodedAnimation, _ body: (PixelBuffer) throws(ImageTransformError) -> PixelBuffer
    ) throws(ImageTransformError) -> DecodedAnimation {
        var frames: [AnimationFrame] = []
        frames.reserveCapacity(animation.frames.count)
        for frame in animation.frames {
            frames.append(
                AnimationFrame(image: try body(frame.image), durationMilliseconds: frame.durationMilliseconds))
        }
        return DecodedAnimation(frames: frames, loopCount: animation.loopCount)
    }

    /// SDWebImage's `transformAnimatedImage` choice: an animated image is transformed
    /// (every frame, see ``transformEveryFrame(of:)``) only when `transformsAnimatedImages`
    /// is true and is otherwise returned unchanged; a still image is always transformed.
    /// ``appliesTransform(to:transformsAnimatedImages:)`` tells which happens, so a cache
    /// stores the result under the transformed key only then.
    /// - Throws: ``ImageTransformError``.
    public func transform(
        _ animation: DecodedAnimation, transformsAnimatedImages: Bool
    ) throws(ImageTransformError) -> DecodedAnimation {
        guard appliesTransform(to: animation, transformsAnimatedImages: transformsAnimatedImages) else {
            return animation
        }
        return try transformEveryFrame(of: animation)
    }

    /// True when ``transform(_:transformsAnimatedImages:)`` transforms `animation`.
    public func appliesTransform(to animation: DecodedAnimation, transformsAnimatedImages: Bool) -> Bool {
        !animation.isAnimated || transformsAnimatedImages
    }
}
