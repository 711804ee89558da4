import CWebImagePlugin
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// The `webimage_host` every plugin receives: ``PixelAllocator/system``'s memory (the C heap
/// through ``PixelMemoryPool/shared``) and a log that goes
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
                deallocate: { _, pointer in if let pointer { PixelMemoryPool.shared.deallocate(pointer) } },
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
    static let deallocate: @Sendable (UnsafeMutableRawPointer) -> Void = { PixelMemoryPool.shared.deallocate($0) }
}
