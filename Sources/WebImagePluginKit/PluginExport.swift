import CWebImagePlugin
import Foundation
import WebImageCore

/// Builds the descriptor of a plugin library whose coder is written in Swift.
///
/// A plugin's entry target is one function:
/// ```swift
/// @_cdecl("webimage_plugin_entry")
/// public func webimagePluginEntry(_ host: UnsafePointer<webimage_host>) -> UnsafeRawPointer? {
///     PluginExport.coder(MyCoder(), name: "myformat", version: "1.0.0", host: host)
/// }
/// ```
/// The table exposes incremental decoding when the coder is a ``ProgressiveImageCoder``
/// and animations when it is an ``AnimatedImageCoder``.
public enum PluginExport {
    /// Returns the descriptor (built once; later calls return the same one), or nil when
    /// the host's ABI version is older than this kit's.
    /// - Parameter threadSafe: the coder may be called from several threads at once; default true.
    public static func coder(
        _ coder: some ImageCoder, name: String, version: String, host: UnsafePointer<webimage_host>,
        threadSafe: Bool = true
    ) -> UnsafeRawPointer? {
        guard host.pointee.abi_version >= 1 else { return nil }
        ExportedCoder.install(ExportedCoder(coder: coder, allocator: PixelAllocator(host: host)))
        return UnsafeRawPointer(
            DescriptorStore.descriptor(for: coder, name: name, version: version, threadSafe: threadSafe))
    }
}

/// Keeps the one descriptor of this library alive for the life of the process.
enum DescriptorStore {
    nonisolated(unsafe) private static var built: UnsafePointer<webimage_plugin_descriptor>?
    private static let lock = NSLock()

    static func descriptor(
        for coder: any ImageCoder, name: String, version: String, threadSafe: Bool
    ) -> UnsafePointer<webimage_plugin_descriptor> {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let formats = UnsafeMutablePointer<webimage_format>.allocate(capacity: coder.formats.count)
        for (index, format) in coder.formats.enumerated() {
            (formats + index).initialize(
                to: webimage_format(
                    name: strdup(format.name)!, mime_type: strdup(format.mimeType)!,
                    capabilities: format.capabilities.rawValue, reserved: 0))
        }
        let encodes = coder.formats.contains { $0.capabilities.contains(.encode) }
        let progressive = coder is any ProgressiveImageCoder
        let animated = coder is any AnimatedImageCoder
        let table = webimage_coder(
            struct_size: UInt32(MemoryLayout<webimage_coder>.size),
            flags: threadSafe ? WEBIMAGE_CODER_THREAD_SAFE : 0,
            formats: UnsafePointer(formats),
            format_count: UInt32(coder.formats.count),
            reserved: 0,
            can_decode: CoderTableFunctions.canDecode,
            probe: CoderTableFunctions.probe,
            decode: CoderTableFunctions.decode,
            encode: encodes ? CoderTableFunctions.encode : nil,
            incremental_create: progressive ? IncrementalTableFunctions.create : nil,
            incremental_append: progressive ? IncrementalTableFunctions.append : nil,
            incremental_copy_image: progressive ? IncrementalTableFunctions.copyImage : nil,
            incremental_destroy: progressive ? IncrementalTableFunctions.destroy : nil,
            animation_open: animated ? AnimationTableFunctions.open : nil,
            animation_frame_duration: animated ? AnimationTableFunctions.frameDuration : nil,
            animation_decode_frame: animated ? AnimationTableFunctions.decodeFrame : nil,
            animation_close: animated ? AnimationTableFunctions.close : nil,
            encode_animation: animated ? CoderTableFunctions.encodeAnimation : nil)
        let tablePointer = UnsafeMutablePointer<webimage_coder>.allocate(capacity: 1)
        tablePointer.initialize(to: table)
        let descriptor = UnsafeMutablePointer<webimage_plugin_descriptor>.allocate(capacity: 1)
        descriptor.initialize(
            to: webimage_plugin_descriptor(
                abi_version: WEBIMAGE_PLUGIN_ABI_VERSION,
                struct_size: UInt32(MemoryLayout<webimage_plugin_descriptor>.size),
                name: strdup(name)!, version: strdup(version)!, kinds: WEBIMAGE_KIND_CODER, reserved: 0,
                coder: UnsafePointer(tablePointer), loader: nil, memory_cache: nil, disk_cache: nil, transformer: nil))
        built = UnsafePointer(descriptor)
        return built!
    }
}
