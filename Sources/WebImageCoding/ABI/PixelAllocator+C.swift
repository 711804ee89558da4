import CWebImagePlugin

extension PixelAllocator {
    /// Calls `body` with a C allocate/deallocate pair that forwards to this allocator; the
    /// pair is valid only during the call, the blocks it returns stay valid until freed.
    public func withCAllocator<Result, Failure: Error>(
        _ body: (webimage_allocator) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let forwarder = CAllocatorForwarder(self)
        return try withExtendedLifetime(forwarder) { () throws(Failure) -> Result in try body(forwarder.cAllocator) }
    }
}

/// A C allocate/deallocate pair whose context is this object: valid while it lives.
final class CAllocatorForwarder {
    let allocator: PixelAllocator

    init(_ allocator: PixelAllocator) {
        self.allocator = allocator
    }

    /// The pair, forwarding to ``allocator``; do not use it after this object is released.
    var cAllocator: webimage_allocator {
        webimage_allocator(
            context: Unmanaged.passUnretained(self).toOpaque(),
            allocate: { context, size, alignment in
                Unmanaged<CAllocatorForwarder>.fromOpaque(context!).takeUnretainedValue().allocator.allocate(
                    size, alignment)
            },
            deallocate: { context, pointer in
                guard let pointer else { return }
                Unmanaged<CAllocatorForwarder>.fromOpaque(context!).takeUnretainedValue().allocator.deallocate(pointer)
            })
    }
}
