import CWebImagePlugin

extension PixelAllocator {
    /// Calls `body` with a C allocate/deallocate pair that forwards to this allocator; the
    /// pair is valid only during the call, the blocks it returns stay valid until freed.
    public func withCAllocator<Result, Failure: Error>(
        _ body: (webimage_allocator) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let box = Box(self)
        defer { withExtendedLifetime(box) {} }
        let allocator = webimage_allocator(
            context: Unmanaged.passUnretained(box).toOpaque(),
            allocate: { context, size, alignment in
                Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue().allocator.allocate(size, alignment)
            },
            deallocate: { context, pointer in
                guard let pointer else { return }
                Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue().allocator.deallocate(pointer)
            })
        return try body(allocator)
    }

    /// Holds the allocator for the C functions' context.
    private final class Box {
        let allocator: PixelAllocator
        init(_ allocator: PixelAllocator) { self.allocator = allocator }
    }
}
