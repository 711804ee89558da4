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
///
/// A command that frees one body per file (`webimage fetch`) also holds the trim threshold
/// (``holdTrimThreshold(bytes:)``): glibc returns the free top of a heap to the system once it
/// exceeds 128 KiB, and the next body's pages then fault in again. For 1,000 files of 20–500 KB
/// this was 10,000–17,000 page faults against curl's 3,000, and a fifth of the command's CPU.
public enum LargeBlockMemoryPolicy {
    /// The threshold `webimage serve` holds: 1 MiB.
    public static let defaultThreshold = 1 << 20
    /// The trim threshold `webimage fetch` holds: 16 MiB.
    public static let defaultTrimThreshold = 16 << 20

    /// Holds glibc's mmap threshold at `bytes` (default 1 MiB), so blocks of at least that
    /// size are returned to the system when freed. A `MALLOC_MMAP_THRESHOLD_` variable in the
    /// environment is the user's choice and wins (nothing is changed).
    /// - Returns: whether the threshold was set here.
    @discardableResult
    public static func holdMmapThreshold(bytes: Int = defaultThreshold) -> Bool {
        // `M_MMAP_THRESHOLD` is -3 in every glibc.
        setAllocatorParameter(-3, to: bytes, unlessSetIn: "MALLOC_MMAP_THRESHOLD_")
    }

    /// Holds glibc's trim threshold at `bytes` (default 16 MiB): the free top of a heap is
    /// returned to the system only beyond it, so blocks freed and allocated again in turn keep
    /// their pages. A `MALLOC_TRIM_THRESHOLD_` variable in the environment wins. Holding it
    /// also stops glibc's dynamic mmap threshold: hold that one too
    /// (``holdMmapThreshold(bytes:)``), or every block from 128 KiB on is mapped on its own.
    /// - Returns: whether the threshold was set here.
    @discardableResult
    public static func holdTrimThreshold(bytes: Int = defaultTrimThreshold) -> Bool {
        // `M_TRIM_THRESHOLD` is -1 in every glibc.
        setAllocatorParameter(-1, to: bytes, unlessSetIn: "MALLOC_TRIM_THRESHOLD_")
    }

    /// `mallopt(parameter, value)` unless `variable` is set in the environment.
    private static func setAllocatorParameter(_ parameter: Int32, to value: Int, unlessSetIn variable: String) -> Bool {
        #if canImport(Glibc)
            guard getenv(variable) == nil,
                // <malloc.h> is not in the Glibc module: `mallopt` found by name.
                let symbol = dlsym(nil, "mallopt")
            else { return false }
            let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
            return mallopt(parameter, Int32(clamping: value)) == 1
        #else
            return false
        #endif
    }
}
