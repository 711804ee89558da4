/// The byte limits a transform is checked against before it allocates (see
/// ``ImageTransformer/transform(_:limits:)``): by default the decode's, so a transformer
/// may allocate no more than the decode before it could.
public struct TransformLimits: Sendable {
    /// The most bytes one transform (of an image, or of one frame) may allocate: its
    /// output and scratch (``TransformFootprint/byteCount``). 0 = no limit. Default
    /// ``DecodeOptions/defaultMaxByteCount`` (1 GiB).
    public var maxByteCount = DecodeOptions.defaultMaxByteCount
    /// The most bytes the transformed frames of an animation may hold at once: every
    /// output frame and one frame's scratch. 0 = no limit. Default
    /// ``DecodeOptions/defaultMaxAnimationByteCount`` (512 MiB).
    public var maxAnimationByteCount = DecodeOptions.defaultMaxAnimationByteCount
    /// The budget shared with the decodes and transforms running at the same time; nil =
    /// none. Default ``ConcurrentByteBudget/shared``.
    public var concurrentBudget: ConcurrentByteBudget? = .shared

    /// The default limits.
    public init() {}

    /// The limits of a decode: its byte limit, animation byte limit and concurrent budget.
    public init(_ options: DecodeOptions) {
        maxByteCount = options.maxByteCount
        maxAnimationByteCount = options.maxAnimationByteCount
        concurrentBudget = options.concurrentBudget
    }
}
