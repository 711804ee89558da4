import CWebImagePlugin

/// A value stored in a memory cache plugin: the plugin holds the box's address as its handle
/// and one reference to it, retained and released through ``callbacks``.
final class MemoryCacheValueBox: Sendable {
    let value: any Sendable

    init(_ value: any Sendable) {
        self.value = value
    }

    /// The callbacks every plugin instance gets; they live as long as the process.
    nonisolated(unsafe) static let callbacks: UnsafePointer<webimage_value_callbacks> = {
        let callbacks = UnsafeMutablePointer<webimage_value_callbacks>.allocate(capacity: 1)
        callbacks.initialize(
            to: webimage_value_callbacks(
                struct_size: UInt32(MemoryLayout<webimage_value_callbacks>.size), reserved: 0, context: nil,
                retain: { _, handle in _ = Unmanaged<MemoryCacheValueBox>.fromOpaque(handle).retain() },
                release: { _, handle in Unmanaged<MemoryCacheValueBox>.fromOpaque(handle).release() }))
        return UnsafePointer(callbacks)
    }()
}
