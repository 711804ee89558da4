/// Where pixel memory comes from.
///
/// The host's allocator is handed to plugins through the C ABI so that decoders write
/// straight into memory a ``PixelBuffer`` then owns: no copy between plugin and host.
///
/// Two allocators are equal when one is a copy of the other (the same ``init(allocate:deallocate:)``
/// call made both), which is how ``EncodedImageData`` tells whether its memory can be handed
/// to an allocator's owner without a copy.
public struct PixelAllocator: Sendable, Equatable {
    /// Returns `byteCount` bytes aligned to `alignment` (a power of two), or nil.
    public let allocate: @Sendable (_ byteCount: Int, _ alignment: Int) -> UnsafeMutableRawPointer?
    /// Frees memory returned by `allocate`.
    public let deallocate: @Sendable (_ pointer: UnsafeMutableRawPointer) -> Void
    /// Shared by the copies of one allocator.
    private let identity = Identity()

    public init(
        allocate: @escaping @Sendable (_ byteCount: Int, _ alignment: Int) -> UnsafeMutableRawPointer?,
        deallocate: @escaping @Sendable (_ pointer: UnsafeMutableRawPointer) -> Void
    ) {
        self.allocate = allocate
        self.deallocate = deallocate
    }

    /// The C heap through ``PixelMemoryPool/shared`` (large freed blocks are reused). The
    /// default everywhere; every block it returns may also be released with `free`.
    public static let system = PixelAllocator(
        allocate: { byteCount, alignment in PixelMemoryPool.shared.allocate(byteCount, alignment: alignment) },
        deallocate: { pointer in PixelMemoryPool.shared.deallocate(pointer) }
    )

    /// Equal when both are copies of one allocator.
    public static func == (lhs: PixelAllocator, rhs: PixelAllocator) -> Bool {
        lhs.identity === rhs.identity
    }

    /// What the copies of one allocator share.
    private final class Identity: Sendable {}
}
