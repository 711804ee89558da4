/// The shared blocks of one isolated plugin that nobody uses right now, kept for the next
/// request so that steady work (the same decode again and again) maps and faults in no new
/// memory, on either side.
///
/// A block is taken for a request's input or for an allocation of the worker's plugin, and
/// comes back when the request ends (input), when the plugin frees it, or when the
/// ``PixelBuffer`` or ``EncodedImageData`` that adopted it is released. Blocks beyond the
/// pool's limits are destroyed; their ids wait in ``takeForgotten()`` for the next request,
/// which tells the worker to unmap them.
final class SharedMemoryPool: Sendable {
    /// At most this many free blocks are kept. Default 8.
    let maximumCount: Int
    /// At most this many bytes of free blocks are kept. Default 128 MiB.
    let maximumBytes: Int

    private struct State {
        var free: [SharedMemoryBlock] = []
        var freeBytes = 0
        var forgotten: [UInt64] = []
    }
    private let state = TrackedMutex(State())

    init(maximumCount: Int = 8, maximumBytes: Int = 128 << 20) {
        self.maximumCount = maximumCount
        self.maximumBytes = maximumBytes
    }

    /// A block of at least `byteCount` bytes: the smallest free one no more than twice that
    /// size, else a new one.
    func take(_ byteCount: Int) throws(ImageCodingError) -> SharedMemoryBlock {
        let reused = state.withLock { state -> SharedMemoryBlock? in
            let fitting = state.free.indices.filter {
                state.free[$0].size >= byteCount && state.free[$0].size / 2 <= max(byteCount, 4096)
            }
            guard let best = fitting.min(by: { state.free[$0].size < state.free[$1].size }) else { return nil }
            let block = state.free.remove(at: best)
            state.freeBytes -= block.size
            return block
        }
        if let reused { return reused }
        return try SharedMemoryBlock(byteCount: byteCount)
    }

    /// Returns `block` to the pool; destroys the oldest free blocks past the limits.
    func give(_ block: SharedMemoryBlock) {
        let destroyed = state.withLock { state -> [SharedMemoryBlock] in
            state.free.append(block)
            state.freeBytes += block.size
            var destroyed: [SharedMemoryBlock] = []
            while state.free.count > maximumCount || state.freeBytes > maximumBytes {
                let oldest = state.free.removeFirst()
                state.freeBytes -= oldest.size
                state.forgotten.append(oldest.id)
                destroyed.append(oldest)
            }
            return destroyed
        }
        _ = destroyed  // unmapped here, outside the lock, as the array goes
    }

    /// The ids of blocks destroyed since the last call.
    func takeForgotten() -> [UInt64] {
        state.withLock { state in
            defer { state.forgotten = [] }
            return state.forgotten
        }
    }
}
