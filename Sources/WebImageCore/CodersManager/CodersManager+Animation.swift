extension CodersManager {
    /// Opens an animated image (frames decoded lazily) with the coder chosen for its bytes.
    /// A still image opens as a one-frame animation when its coder handles animations.
    /// - Throws: ``ImageCodingError``, `.unsupportedOperation` when the coder has no animation support.
    public func openAnimation(_ bytes: [UInt8]) throws -> any AnimatedImageSource {
        let coder = try bytes.withUnsafeBytes { try self.coder(for: $0) }
        guard coder.formats.contains(where: { $0.capabilities.contains(.decodeAnimation) }),
            let animated = coder as? any AnimatedImageCoder
        else {
            let name = coder.formats.first?.name ?? "chosen"
            throw ImageCodingError(.unsupportedOperation, "the \(name) coder cannot decode animations")
        }
        return try animated.openAnimation(bytes)
    }

    /// Decodes frame `index` of `animation`, resized to `options.thumbnail` when one is given.
    /// Frames carry no EXIF orientation, so `options.appliesOrientation` does not apply.
    ///
    /// Before decoding, the animation is checked against `options.maxFrameCount` and
    /// `options.maxAnimationByteCount` (the coder's canvas and this frame), and the deadline
    /// (`options.deadline`, else `options.timeLimit` from now) against the clock.
    /// - Throws: ``ImageCodingError``: `.tooLarge` over a limit, `.timedOut` past the deadline.
    public func decodeFrame(
        _ index: Int, of animation: any AnimatedImageSource, options: DecodeOptions = DecodeOptions()
    )
        throws -> DecodedImage
    {
        let info = animation.info
        let target = options.thumbnail?.targetSize(sourceWidth: info.width, sourceHeight: info.height)
        try AnimationBudget(options).check(info, heldFrames: 1, frameSize: (info.width, info.height))
        let deadline = options.startDeadline()
        try deadline?.check("before frame \(index) of \(info.frameCount)")
        var image = try animation.decodeFrame(at: index, request: options.request(deadline: deadline))
        if let target, target != (image.width, image.height) {
            image.pixels = try ImageResizer.resize(
                image.pixels, width: target.width, height: target.height, deadline: deadline)
        }
        return image
    }

    /// Decodes every frame at once (each resized as ``decodeFrame(_:of:options:)`` does) with
    /// its duration: the "preload all frames" choice, which holds `frameCount` frames.
    ///
    /// Checked before the first frame: `options.maxFrameCount`, and
    /// `options.maxAnimationByteCount` against every output frame (thumbnail-sized when a
    /// thumbnail is asked for) plus the coder's full-size canvas. One deadline covers all
    /// the frames and is checked before each.
    /// - Throws: ``ImageCodingError`` from the first frame that fails, `.tooLarge` over a
    ///   limit, `.timedOut` past the deadline.
    public func decodeAllFrames(of animation: any AnimatedImageSource, options: DecodeOptions = DecodeOptions())
        throws -> [AnimationFrame]
    {
        let info = animation.info
        let frameSize = options.thumbnail?.targetSize(sourceWidth: info.width, sourceHeight: info.height)
        try AnimationBudget(options).check(
            info, heldFrames: info.frameCount, frameSize: frameSize ?? (info.width, info.height))
        let shared = options.withDeadlineStarted()
        return try (0..<info.frameCount).map { index in
            AnimationFrame(
                image: try decodeFrame(index, of: animation, options: shared).pixels,
                durationMilliseconds: animation.frameDuration(at: index))
        }
    }

    /// Encodes frames as one animation in `options.format` (each frame first shrunk to
    /// `options.maxPixelSize`), storing `options.loopCount`.
    /// - Throws: ``ImageCodingError``, `.unsupportedOperation` when the format cannot hold animations.
    public func encodeAnimation(_ frames: [AnimationFrame], options: EncodeOptions) throws -> EncodedImageData {
        let (coder, format) = try coder(forFormat: options.format)
        guard format.capabilities.contains(.encodeAnimation), let animated = coder as? any AnimatedImageCoder else {
            throw ImageCodingError(.unsupportedOperation, "the \(format.name) coder cannot encode animations")
        }
        let fitted = try frames.map {
            AnimationFrame(image: try options.fitted($0.image), durationMilliseconds: $0.durationMilliseconds)
        }
        return try animated.encodeAnimation(fitted, request: options.request(format: format.name))
    }
}
