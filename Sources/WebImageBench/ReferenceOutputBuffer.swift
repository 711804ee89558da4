/// The RGBA8 memory a ``ReferenceDecoder`` decodes into, allocated once and touched once
/// before timing so that no round pays for faulting in fresh pages.
final class ReferenceOutputBuffer {
    let pointer: UnsafeMutableRawPointer
    /// Bytes.
    let size: Int

    init(size: Int) {
        self.size = max(size, 1)
        pointer = UnsafeMutableRawPointer.allocate(byteCount: self.size, alignment: 64)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: self.size)
    }

    deinit { pointer.deallocate() }
}
