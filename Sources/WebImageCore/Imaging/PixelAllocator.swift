#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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

    /// The C heap: `posix_memalign` and `free`. The default everywhere.
    public static let system = PixelAllocator(
        allocate: { byteCount, alignment in
            var pointer: UnsafeMutableRawPointer?
            let effectiveAlignment = max(alignment, MemoryLayout<UnsafeRawPointer>.alignment)
            guard posix_memalign(&pointer, effectiveAlignment, max(byteCount, 1)) == 0 else { return nil }
            return pointer
        },
        deallocate: { pointer in free(pointer) }
    )
}
