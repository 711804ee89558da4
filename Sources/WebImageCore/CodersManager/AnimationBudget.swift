/// The limits an animation decode checks before its first frame: how many frames it may
/// have, and how many bytes the frames it holds at once may take (``DecodeOptions``'s
/// ``DecodeOptions/maxFrameCount`` and ``DecodeOptions/maxAnimationByteCount``).
///
/// Bytes are counted at 4 a pixel (every bundled animation coder composites RGBA8): the
/// coder's canvas at the animation's full size, plus the frames handed out.
struct AnimationBudget {
    /// Bytes of one RGBA8 pixel.
    static let bytesPerPixel = 4

    let maxFrameCount: Int
    let maxByteCount: Int

    init(_ options: DecodeOptions) {
        maxFrameCount = options.maxFrameCount
        maxByteCount = options.maxAnimationByteCount
    }

    /// Throws `.tooLarge` when `info` has more frames than allowed, or when holding
    /// `heldFrames` output frames of `frameSize` besides the full-size canvas is over budget.
    func check(_ info: ImageInfo, heldFrames: Int, frameSize: (width: Int, height: Int)) throws(ImageCodingError) {
        if maxFrameCount > 0 && info.frameCount > maxFrameCount {
            throw ImageCodingError(
                .tooLarge,
                "animation too large: \(info.frameCount) frames exceed the limit of \(maxFrameCount) frames")
        }
        guard maxByteCount > 0 else { return }
        let canvas = Self.bytes(width: info.width, height: info.height)
        let frame = Self.bytes(width: frameSize.width, height: frameSize.height)
        let frames = frame.multipliedReportingOverflow(by: max(1, heldFrames))
        let total = canvas.addingReportingOverflow(frames.partialValue)
        if frames.overflow || total.overflow || total.partialValue > maxByteCount {
            let held = heldFrames == 1 ? "a frame" : "\(heldFrames) frames"
            let needed = frames.overflow || total.overflow ? "more than \(Int.max)" : "\(total.partialValue)"
            throw ImageCodingError(
                .tooLarge,
                "animation too large: holding \(held) of \(frameSize.width)×\(frameSize.height) pixels and the "
                    + "\(info.width)×\(info.height) canvas needs \(needed) bytes, over the limit of \(maxByteCount) bytes"
            )
        }
    }

    /// Bytes of a `width` × `height` RGBA8 image, `Int.max` when that overflows.
    private static func bytes(width: Int, height: Int) -> Int {
        TransformFootprint.bytes(width: width, height: height, bytesPerPixel: bytesPerPixel)
    }
}
