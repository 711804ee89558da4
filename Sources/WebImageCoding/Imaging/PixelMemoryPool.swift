#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Keeps recently freed large pixel blocks and hands them out again.
///
/// A fresh multi-megabyte block from the C heap is new virtual memory: the kernel maps and
/// zeroes each page on first touch, which costs about as much as decoding into it (a
/// 4000 × 3000 RGBA8 JPEG decode measured 41 ms into fresh memory, 22 ms into reused
/// memory; see docs/performance.md). Reusing freed blocks removes that cost for servers
/// and tools that decode one image after another.
///
/// Every block is an ordinary C heap block (`posix_memalign`), so `free` is always a valid
/// way to release one; the pool only delays that for up to ``capacity`` bytes.
public final class PixelMemoryPool: Sendable {
    /// The pool behind ``PixelAllocator/system`` and the plugin host's allocator.
    public static let shared = PixelMemoryPool()

    /// Blocks smaller than this many bytes are never kept. Default 128 KiB: glibc's `malloc`
    /// maps blocks from that size on as fresh memory (its default `M_MMAP_THRESHOLD`), and a
    /// 256 × 192 RGBA8 thumbnail (192 KiB) is then reused instead of faulted in again.
    public let minimumBlockSize: Int

    /// A block owned by the pool alone while it is kept, so it may move between threads.
    private struct CachedBlock: @unchecked Sendable {
        var pointer: UnsafeMutableRawPointer
        var size: Int
    }

    private struct State: @unchecked Sendable {
        /// Sizes of the large blocks this pool handed out and that are still in use, by address.
        var liveSizes: [UInt: Int] = [:]
        var blocks: [CachedBlock] = []
        var cachedBytes = 0
        var capacity: Int
    }

    private let state: TrackedMutex<State>

    /// - Parameters:
    ///   - capacity: most bytes of freed blocks kept for reuse; default 128 MiB. 0 turns pooling off.
    ///   - minimumBlockSize: smaller blocks go straight back to the C heap; default 128 KiB.
    public init(capacity: Int = 128 << 20, minimumBlockSize: Int = 128 << 10) {
        self.minimumBlockSize = minimumBlockSize
        self.state = TrackedMutex(State(capacity: max(0, capacity)))
    }

    /// Most bytes of freed blocks kept for reuse; lowering it frees blocks at once.
    public var capacity: Int {
        get { state.withLock { $0.capacity } }
        set {
            let evicted = state.withLock { state in
                state.capacity = max(0, newValue)
                return Self.evict(&state)
            }
            for block in evicted { free(block.pointer) }
        }
    }

    /// Bytes currently kept for reuse.
    public var cachedBytes: Int { state.withLock { $0.cachedBytes } }

    /// Returns `byteCount` bytes aligned to `alignment`: a kept block of a close size when
    /// there is one (at most a quarter larger), else a new C heap block. Nil when the heap fails.
    public func allocate(_ byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer? {
        let size = max(byteCount, 1)
        guard size >= minimumBlockSize else { return Self.heapAllocate(size, alignment: alignment) }
        let reused = state.withLock { state -> UnsafeMutableRawPointer? in
            guard
                let index = state.blocks.lastIndex(where: {
                    $0.size >= size && $0.size - size <= size / 4 && Int(bitPattern: $0.pointer) % alignment == 0
                })
            else { return nil }
            let block = state.blocks.remove(at: index)
            state.cachedBytes -= block.size
            state.liveSizes[UInt(bitPattern: block.pointer)] = block.size
            return block.pointer
        }
        if let reused { return reused }
        guard let pointer = Self.heapAllocate(size, alignment: alignment) else { return nil }
        state.withLock { $0.liveSizes[UInt(bitPattern: pointer)] = size }
        return pointer
    }

    private static func heapAllocate(_ size: Int, alignment: Int) -> UnsafeMutableRawPointer? {
        var pointer: UnsafeMutableRawPointer?
        let effectiveAlignment = max(alignment, MemoryLayout<UnsafeRawPointer>.alignment)
        guard posix_memalign(&pointer, effectiveAlignment, size) == 0 else { return nil }
        return pointer
    }

    /// Keeps a large block this pool handed out for reuse (evicting the oldest kept blocks
    /// beyond ``capacity``); frees any other block.
    public func deallocate(_ pointer: UnsafeMutableRawPointer) {
        let evicted = state.withLock { state -> [CachedBlock] in
            guard let size = state.liveSizes.removeValue(forKey: UInt(bitPattern: pointer)), size <= state.capacity
            else { return [CachedBlock(pointer: pointer, size: 0)] }
            state.blocks.append(CachedBlock(pointer: pointer, size: size))
            state.cachedBytes += size
            return Self.evict(&state)
        }
        for block in evicted { free(block.pointer) }
    }

    /// Frees every kept block.
    public func releaseCachedBlocks() {
        let evicted = state.withLock { state -> [CachedBlock] in
            defer {
                state.blocks = []
                state.cachedBytes = 0
            }
            return state.blocks
        }
        for block in evicted { free(block.pointer) }
    }

    /// Removes the oldest blocks until the kept bytes fit the capacity; returns them to free.
    private static func evict(_ state: inout State) -> [CachedBlock] {
        var evicted: [CachedBlock] = []
        while state.cachedBytes > state.capacity, !state.blocks.isEmpty {
            let block = state.blocks.removeFirst()
            state.cachedBytes -= block.size
            evicted.append(block)
        }
        return evicted
    }
}
