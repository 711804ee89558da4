import CWebImagePlugin
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// The `webimage_host` every plugin receives: the C heap as allocator (the same one as
/// ``PixelAllocator/system``, so plugin pixels are freed with `free`) and a log that goes
/// to swift-log under the label `webimage.plugin`.
public enum HostServices {
    /// Lives for the whole process, as the ABI promises plugins.
    nonisolated(unsafe) public static let host: UnsafePointer<webimage_host> = {
        let host = UnsafeMutablePointer<webimage_host>.allocate(capacity: 1)
        host.initialize(
            to: webimage_host(
                abi_version: WEBIMAGE_PLUGIN_ABI_VERSION,
                struct_size: UInt32(MemoryLayout<webimage_host>.size),
                context: nil,
                allocate: { _, size, alignment in PixelAllocator.system.allocate(size, alignment) },
                deallocate: { _, pointer in free(pointer) },
                log: { _, level, message in
                    let text = Logger.Message(stringLiteral: String(cString: message))
                    switch level {
                    case WEBIMAGE_LOG_DEBUG: pluginLogger.debug(text)
                    case WEBIMAGE_LOG_INFO: pluginLogger.info(text)
                    case WEBIMAGE_LOG_WARNING: pluginLogger.warning(text)
                    default: pluginLogger.error(text)
                    }
                }))
        return UnsafePointer(host)
    }()

    static let pluginLogger = Logger(label: "webimage.plugin")

    /// Frees memory a plugin allocated through ``host``.
    static let deallocate: @Sendable (UnsafeMutableRawPointer) -> Void = { free($0) }
}
