/// Where pixel memory comes from.
///
/// The host's allocator is handed to plugins through the C ABI so that decoders write
/// straight into memory a ``PixelBuffer`` then owns: no copy between plugin and host.
public struct PixelAllocator: Sendable {
    /// Returns `byteCount` bytes aligned to `alignment` (a power of two), or nil.
    public let allocate: @Sendable (_ byteCount: Int, _ alignment: Int) -> UnsafeMutableRawPointer?
    /// Frees memory returned by `allocate`.
    public let deallocate: @Sendable (_ pointer: UnsafeMutableRawPointer) -> Void

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
}
