import CWebImageIsolation
import CWebImagePlugin
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The worker's side of the shared blocks: the mappings it holds, and the host allocator its
/// plugin calls, which asks the host for a block over the socket.
final class WorkerMemory: @unchecked Sendable {
    // @unchecked: everything mutable is touched with `lock` held (the plugin may allocate from
    // threads of its own while the worker's main thread waits inside the plugin).
    private let lock = ThreadLock()
    private let channel: WorkerChannel
    private var mappings: [UInt64: (base: UnsafeMutableRawPointer, size: Int)] = [:]
    private var idsByBase: [UnsafeMutableRawPointer: UInt64] = [:]

    init(channel: WorkerChannel) {
        self.channel = channel
    }

    /// Maps the block `id` of `size` bytes from `descriptor` (which it closes).
    func map(_ id: UInt64, size: Int, descriptor: Int32) {
        lock.lock()
        defer { lock.unlock() }
        mapLocked(id, size: size, descriptor: descriptor)
    }

    /// Unmaps the block `id`: the host destroyed it.
    func forget(_ id: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        guard let mapping = mappings.removeValue(forKey: id) else { return }
        idsByBase[mapping.base] = nil
        munmap(mapping.base, mapping.size)
    }

    /// `count` bytes at `offset` of block `id`, or nil when the block is unknown or too small.
    func bytes(_ id: UInt64, offset: UInt64, count: UInt64) -> UnsafeMutableRawPointer? {
        lock.lock()
        defer { lock.unlock() }
        guard let mapping = mappings[id], offset <= UInt64(mapping.size), count <= UInt64(mapping.size) - offset else {
            return nil
        }
        return mapping.base + Int(offset)
    }

    /// The block holding `pointer` and the pointer's offset in it.
    func locate(_ pointer: UnsafeRawPointer) -> (id: UInt64, offset: UInt64, size: Int)? {
        lock.lock()
        defer { lock.unlock() }
        for (id, mapping) in mappings
        where pointer >= UnsafeRawPointer(mapping.base)
            && pointer < UnsafeRawPointer(mapping.base + mapping.size)
        {
            return (id, UInt64(pointer - UnsafeRawPointer(mapping.base)), mapping.size)
        }
        return nil
    }

    /// The plugin's `allocate`: a block from the host, mapped here.
    func allocate(_ byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer? {
        guard alignment <= Int(sysconf(Int32(_SC_PAGESIZE))) else { return nil }
        lock.lock()
        defer { lock.unlock() }
        var request = WorkerFrame(.allocate)
        request.count = UInt64(max(byteCount, 1))
        request.index = UInt64(alignment)
        do {
            try channel.send(request)
            guard let answer = try channel.receive() else { exit(0) }
            guard answer.frame.kind == .allocation, answer.frame.block != 0 else {
                if answer.descriptor >= 0 { close(answer.descriptor) }
                return nil
            }
            if answer.descriptor >= 0 {
                mapLocked(answer.frame.block, size: Int(answer.frame.count), descriptor: answer.descriptor)
            }
            return mappings[answer.frame.block]?.base
        } catch {
            exit(0)
        }
    }

    /// The plugin's `deallocate`: tells the host the block is free (the mapping is kept for
    /// the next time the host hands the same block out).
    func deallocate(_ pointer: UnsafeMutableRawPointer) {
        lock.lock()
        defer { lock.unlock() }
        guard let id = idsByBase[pointer] else { return }
        var frame = WorkerFrame(.free)
        frame.block = id
        do { try channel.send(frame) } catch { exit(0) }
    }

    private func mapLocked(_ id: UInt64, size: Int, descriptor: Int32) {
        defer { close(descriptor) }
        if mappings[id] != nil { return }
        guard let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), base != MAP_FAILED else {
            return
        }
        mappings[id] = (base, size)
        idsByBase[base] = id
    }
}
