/// An animation being encoded one frame at a time: the caller decodes a frame, adds it and
/// lets it go, so a conversion holds one frame instead of all of them.
public protocol AnimationFrameEncoder: AnyObject {
    /// Adds the next frame; every frame has the size given when the encoder was made.
    /// - Throws: ``ImageCodingError``.
    func add(_ frame: AnimationFrame) throws
    /// The encoded animation, after the last frame.
    /// - Throws: ``ImageCodingError``, `.invalidArgument` when fewer frames than announced were added.
    func finish() throws -> EncodedImageData
}

/// A coder that can encode animations frame by frame (``AnimationFrameEncoder``).
public protocol StreamingAnimationCoder: AnimatedImageCoder {
    /// True when animations in `format` can be encoded frame by frame; else only from all
    /// frames at once (``AnimatedImageCoder/encodeAnimation(_:request:)``).
    func encodesAnimationFrameByFrame(format: String) -> Bool

    /// An encoder for `frameCount` frames of `width` × `height` in `request.format`.
    /// - Throws: ``ImageCodingError``, `.unsupportedOperation` when
    ///   ``encodesAnimationFrameByFrame(format:)`` is false for the format.
    func makeAnimationEncoder(width: Int, height: Int, frameCount: Int, request: EncodeRequest) throws
        -> any AnimationFrameEncoder
}
