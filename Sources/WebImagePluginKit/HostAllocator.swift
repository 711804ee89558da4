import CWebImagePlugin
import WebImageCoding

extension PixelAllocator {
    /// The host's allocator, for pixels that cross the ABI back to the host without a copy.
    public init(host: UnsafePointer<webimage_host>) {
        let hostAddress = UInt(bitPattern: host)
        self.init(
            allocate: { byteCount, alignment in
                let host = UnsafePointer<webimage_host>(bitPattern: hostAddress)!
                return host.pointee.allocate(host.pointee.context, byteCount, alignment)
            },
            deallocate: { pointer in
                let host = UnsafePointer<webimage_host>(bitPattern: hostAddress)!
                host.pointee.deallocate(host.pointee.context, pointer)
            })
    }
}
