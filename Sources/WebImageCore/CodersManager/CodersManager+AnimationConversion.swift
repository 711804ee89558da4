import FoundationEssentials

/// An animation re-encoded by ``CodersManager/convertAnimation(_:decodeOptions:encodeOptions:transform:)``.
public struct ConvertedAnimation {
    /// The encoded file.
    public var data: EncodedImageData
    /// The size of every frame written.
    public var width: Int
    public var height: Int
    /// How many frames were written.
    public var frameCount: Int
    /// True when the frames went to the encoder one at a time (never all held at once).
    public var streamed: Bool
}

extension CodersManager {
    /// Re-encodes `animation` in `encodeOptions.format`: each frame decoded as
    /// ``decodeFrame(_:of:options:)`` does (resized to `decodeOptions.thumbnail`), passed
    /// through `transform`, shrunk to `encodeOptions.maxPixelSize`, keeping its duration.
    ///
    /// When the output format's coder encodes frame by frame (``StreamingAnimationCoder``:
    /// the bundled APNG, GIF and WebP encoders), each frame is handed to the encoder before the next
    /// is decoded, so the conversion holds one frame; the animation budget then counts one
    /// frame and the canvas. Otherwise every frame is decoded first
    /// (``decodeAllFrames(of:options:)``, within `decodeOptions.maxAnimationByteCount`) and
    /// encoded in one call. One deadline covers all the frames.
    /// - Throws: ``ImageCodingError``, and what `transform` throws.
    public func convertAnimation(
        _ animation: any AnimatedImageSource, decodeOptions: DecodeOptions, encodeOptions: EncodeOptions,
        transform: (PixelBuffer) throws -> PixelBuffer = { $0 }
    ) throws -> ConvertedAnimation {
        let (coder, format) = try coder(forFormat: encodeOptions.format)
        guard format.capabilities.contains(.encodeAnimation), coder is any AnimatedImageCoder else {
            throw ImageCodingError(.unsupportedOperation, "the \(format.name) coder cannot encode animations")
        }
        let options = decodeOptions.withDeadlineStarted()
        let frameCount = animation.info.frameCount
        func frame(_ index: Int) throws -> AnimationFrame {
            let pixels = try transform(try decodeFrame(index, of: animation, options: options).pixels)
            return AnimationFrame(
                image: try encodeOptions.fitted(pixels), durationMilliseconds: animation.frameDuration(at: index))
        }
        if let streaming = coder as? any StreamingAnimationCoder, frameCount > 0,
            streaming.encodesAnimationFrameByFrame(format: format.name)
        {
            let first = try frame(0)
            let encoder = try streaming.makeAnimationEncoder(
                width: first.image.width, height: first.image.height, frameCount: frameCount,
                request: encodeOptions.request(format: format.name))
            try encoder.add(first)
            for index in 1..<frameCount { try encoder.add(try frame(index)) }
            return ConvertedAnimation(
                data: try encoder.finish(), width: first.image.width, height: first.image.height,
                frameCount: frameCount, streamed: true)
        }
        let frames = try decodeAllFrames(of: animation, options: options).map {
            AnimationFrame(image: try transform($0.image), durationMilliseconds: $0.durationMilliseconds)
        }
        guard let first = frames.first?.image else { throw ImageCodingError(.invalidArgument, "no frames to encode") }
        let fittedFirst = try encodeOptions.fitted(first)
        return ConvertedAnimation(
            data: try encodeAnimation(frames, options: encodeOptions), width: fittedFirst.width,
            height: fittedFirst.height, frameCount: frames.count, streamed: false)
    }
}

extension CodersManager {
    /// `image` encoded as `options.format`, or, when `animatedImageData` holds an animation
    /// of more than one frame and that format's coder encodes animations (APNG, GIF, WebP),
    /// the whole animation re-encoded by
    /// ``convertAnimation(_:decodeOptions:encodeOptions:transform:)``: every frame decoded
    /// again from `animatedImageData` with `frameDecodeOptions` (its thumbnail box and limits),
    /// passed through `transformFrame`, keeping its duration, with the animation's own loop
    /// count in place of `options.loopCount`. `image` is then not used (it is the first
    /// frame as already decoded). This is how `webimage get` and `webimage serve` write a
    /// loaded ``ImageResult`` (`image.pixels` and ``ImageResult/animatedImageData``).
    /// - Parameter animatedImageData: the encoded animation; nil for a still image.
    /// - Throws: ``ImageCodingError``, and what `transformFrame` throws.
    public func encode(
        _ image: PixelBuffer, keepingAnimationOf animatedImageData: Data?, frameDecodeOptions: DecodeOptions,
        options: EncodeOptions, transformFrame: (PixelBuffer) throws -> PixelBuffer = { $0 }
    ) throws -> EncodedImageData {
        if let animatedImageData,
            (try? coder(forFormat: options.format))?.format.capabilities.contains(.encodeAnimation) == true
        {
            let animation = try openAnimation([UInt8](animatedImageData))
            if animation.info.frameCount > 1 {
                var animationOptions = options
                animationOptions.loopCount = animation.info.loopCount
                return try convertAnimation(
                    animation, decodeOptions: frameDecodeOptions, encodeOptions: animationOptions,
                    transform: transformFrame
                ).data
            }
        }
        return try encode(image, options: options)
    }
}
