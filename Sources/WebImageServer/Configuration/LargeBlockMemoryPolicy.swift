#if canImport(Glibc)
    import Glibc
#endif

/// How the process's allocator treats large blocks: a source's bytes, a decoded image.
///
/// glibc's `malloc` maps a block larger than its mmap threshold on its own and unmaps it when
/// freed, but the threshold rises to the size of the largest mapped block freed so far (up
/// to 32 MiB on 64-bit). After a server has freed one 3.5 MB source body, later ones come
/// from the heaps of its many threads and stay resident after they are freed: under a run of
/// 4000×3000 misses `webimage serve` peaked at 147-149 MiB this way, against 101-108 MiB with
/// the threshold held (docs/performance.md). ``holdMmapThreshold(bytes:)`` holds it.
public enum LargeBlockMemoryPolicy {
    /// The threshold `webimage serve` holds: 1 MiB.
    public static let defaultThreshold = 1 << 20

    /// Holds glibc's mmap threshold at `bytes` (default 1 MiB), so blocks of at least that
    /// size are returned to the system when freed. A `MALLOC_MMAP_THRESHOLD_` variable in the
    /// environment is the user's choice and wins (nothing is changed).
    /// - Returns: whether the threshold was set here.
    @discardableResult
    public static func holdMmapThreshold(bytes: Int = defaultThreshold) -> Bool {
        #if canImport(Glibc)
            guard getenv("MALLOC_MMAP_THRESHOLD_") == nil,
                // <malloc.h> is not in the Glibc module: `mallopt` found by name, with its
                // parameter `M_MMAP_THRESHOLD` (-3 in every glibc).
                let symbol = dlsym(nil, "mallopt")
            else { return false }
            let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
            return mallopt(-3, Int32(clamping: bytes)) == 1
        #else
            return false
        #endif
    }
}
