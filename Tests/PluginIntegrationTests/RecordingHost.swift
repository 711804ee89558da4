import CWebImagePlugin
import Synchronization
import WebImageCore

/// A `webimage_host` whose allocator (``PixelAllocator/system`` underneath, so the host's
/// usual deallocator frees its blocks too) records every block it hands out and gets back.
///
/// The ABI lets a plugin keep its host pointer for the life of the process, so the struct
/// and its record are never freed.
final class RecordingHost: Sendable {
    /// The blocks allocated and not yet freed through this host, by address.
    private let live = TrackedMutex<Set<UInt>>([])
    /// How many blocks this host allocated, freed or not.
    private let allocations = Atomic<Int>(0)

    /// The struct to give a plugin's entry function.
    nonisolated(unsafe) let host: UnsafePointer<webimage_host>

    init() {
        let host = UnsafeMutablePointer<webimage_host>.allocate(capacity: 1)
        self.host = UnsafePointer(host)
        host.initialize(
            to: webimage_host(
                abi_version: WEBIMAGE_PLUGIN_ABI_VERSION, struct_size: UInt32(MemoryLayout<webimage_host>.size),
                context: nil,
                allocate: { context, size, alignment in
                    let recorder = Unmanaged<RecordingHost>.fromOpaque(context!).takeUnretainedValue()
                    guard let block = PixelAllocator.system.allocate(size, alignment) else { return nil }
                    recorder.allocations.add(1, ordering: .relaxed)
                    _ = recorder.live.withLock { $0.insert(UInt(bitPattern: block)) }
                    return block
                },
                deallocate: { context, pointer in
                    guard let pointer else { return }
                    let recorder = Unmanaged<RecordingHost>.fromOpaque(context!).takeUnretainedValue()
                    _ = recorder.live.withLock { $0.remove(UInt(bitPattern: pointer)) }
                    PixelAllocator.system.deallocate(pointer)
                },
                log: { _, _, _ in }))
        host.pointee.context = Unmanaged.passRetained(self).toOpaque()
    }

    /// Addresses of the blocks allocated and not yet freed through this host.
    var liveBlocks: Set<UInt> { live.withLock { $0 } }

    /// Number of blocks allocated through this host so far.
    var allocationCount: Int { allocations.load(ordering: .relaxed) }
}
