extension UnsafeRawBufferPointer {
    /// The first byte as `UInt8`, or nil when empty.
    var bytePointer: UnsafePointer<UInt8>? {
        isEmpty ? nil : baseAddress?.assumingMemoryBound(to: UInt8.self)
    }
}
