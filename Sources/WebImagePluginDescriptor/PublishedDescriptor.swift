import CWebImagePlugin
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The one descriptor of this library, kept for the life of the process.
enum PublishedDescriptor {
    /// No descriptor yet; ``building``: one thread is building it; else the descriptor's address
    /// (the memory it points at is never freed or changed once published). An atomic rather than
    /// a `Mutex`: ThreadSanitizer sees the hand-over of an atomic's acquire and release, not a
    /// `Mutex`'s futex (two threads opening the library at once were reported as a race), and
    /// this module is below `TrackedMutex`'s.
    private static let state = Atomic<UInt>(0)
    private static let building: UInt = 1

    /// The published descriptor, built by `build` on the first call only; a call while another
    /// thread builds it waits for that thread's.
    static func publish(
        _ build: () -> UnsafePointer<webimage_plugin_descriptor>
    ) -> UnsafeRawPointer {
        if state.compareExchange(expected: 0, desired: building, ordering: .acquiring).exchanged {
            let built = UInt(bitPattern: build())
            state.store(built, ordering: .releasing)
            return UnsafeRawPointer(bitPattern: built)!
        }
        var published = state.load(ordering: .acquiring)
        while published == building {
            sched_yield()
            published = state.load(ordering: .acquiring)
        }
        return UnsafeRawPointer(bitPattern: published)!
    }
}
