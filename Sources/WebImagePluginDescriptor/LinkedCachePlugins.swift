import CWebImagePlugin

/// A memory cache plugin whose C table is linked into this process (a bundled plugin's logic
/// target); the core adds `backend()`, the in-process cache over the same adapter as a loaded library.
public protocol LinkedMemoryCachePlugin {
    /// The manifest's name.
    static var pluginName: String { get }
    /// The C table, which lives as long as the process.
    static var table: UnsafePointer<webimage_memory_cache> { get }
}

/// A disk cache plugin whose C table is linked into this process (a bundled plugin's logic
/// target); the core adds `backend()`, the in-process cache over the same adapter as a loaded library.
public protocol LinkedDiskCachePlugin {
    /// The manifest's name.
    static var pluginName: String { get }
    /// The C table, with `host` as the allocator of read buffers and the log.
    static func table(host: UnsafePointer<webimage_host>) -> UnsafePointer<webimage_disk_cache>
}
