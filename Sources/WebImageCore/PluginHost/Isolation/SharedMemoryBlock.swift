import CWebImageIsolation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An anonymous shared-memory file (memfd) mapped into the host, which a plugin worker maps
/// too: encoded bytes go to the worker and pixels come back through it without a copy.
final class SharedMemoryBlock: @unchecked Sendable {
    // @unchecked: every stored property is a constant; the bytes are written by one side at a
    // time (the host before a request, the worker during it).
    /// Unique in the process; the worker knows blocks by it.
    let id: UInt64
    let descriptor: Int32
    /// Bytes, a multiple of the page size.
    let size: Int
    /// The host's mapping.
    let base: UnsafeMutableRawPointer

    private static let nextID = Atomic<UInt64>(0)

    /// A new block of at least `byteCount` bytes.
    /// - Throws: ``ImageCodingError`` `.outOfMemory` when the file or the mapping cannot be made.
    init(byteCount: Int) throws(ImageCodingError) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let (rounded, overflow) = max(byteCount, 1).addingReportingOverflow(page - 1)
        guard !overflow else { throw ImageCodingError(.outOfMemory, "cannot share \(byteCount) bytes") }
        let size = rounded / page * page
        let descriptor = webimage_isolation_memfd("webimage-shared", size)
        guard descriptor >= 0 else {
            throw ImageCodingError(.outOfMemory, "cannot create \(size) bytes of shared memory: \(Self.lastError)")
        }
        let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let mapping, mapping != MAP_FAILED else {
            let reason = Self.lastError
            close(descriptor)
            throw ImageCodingError(.outOfMemory, "cannot map \(size) bytes of shared memory: \(reason)")
        }
        self.id = Self.nextID.add(1, ordering: .relaxed).newValue
        self.descriptor = descriptor
        self.size = size
        self.base = mapping
    }

    deinit {
        munmap(base, size)
        close(descriptor)
    }

    /// True when `count` bytes from `offset` lie inside the block.
    func contains(offset: UInt64, count: UInt64) -> Bool {
        offset <= UInt64(size) && count <= UInt64(size) - offset
    }

    static var lastError: String { String(cString: strerror(errno)) }
}
