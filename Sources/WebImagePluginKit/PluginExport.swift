import CWebImagePlugin
import Synchronization
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// Builds the descriptor of a plugin library written in Swift, one component per kind.
///
/// A plugin's entry target is one function:
/// ```swift
/// @_cdecl("webimage_plugin_entry")
/// public func webimagePluginEntry(_ host: UnsafePointer<webimage_host>) -> UnsafeRawPointer? {
///     PluginDescriptorBuilder(name: "myformat", version: "1.0.0")
///         .coder(MyCoder())
///         .descriptor(host: host)
/// }
/// ```
/// Each component sets its kind's bit and table; kinds the core gains later get a method
/// of their own here, so one library can export, say, a coder and a transformer.
public struct PluginDescriptorBuilder: Sendable {
    /// The coder component and how it may be called.
    struct CoderComponent: Sendable {
        let coder: any ImageCoder
        let threadSafe: Bool
    }

    /// The loader component: a C table (loaders run their own I/O thread in C).
    struct LoaderComponent: @unchecked Sendable {
        // @unchecked: the table is immutable and lives for the life of the process.
        let table: UnsafePointer<webimage_loader>
    }

    let name: String
    let version: String
    private(set) var coderComponent: CoderComponent?
    private(set) var loaderComponent: LoaderComponent?

    /// - Parameters:
    ///   - name: must equal the manifest's `name`.
    ///   - version: must equal the manifest's `version`.
    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    /// Adds the coder kind. The table exposes incremental decoding when `coder` is a
    /// ``ProgressiveImageCoder`` and animations when it is an ``AnimatedImageCoder``.
    /// - Parameter threadSafe: the coder may be called from several threads at once; default true.
    public func coder(_ coder: some ImageCoder, threadSafe: Bool = true) -> Self {
        var copy = self
        copy.coderComponent = CoderComponent(coder: coder, threadSafe: threadSafe)
        return copy
    }

    /// Adds the loader kind with `table`, a C loader (for example a shim over libcurl) that
    /// lives for the life of the process.
    public func loader(_ table: UnsafePointer<webimage_loader>) -> Self {
        var copy = self
        copy.loaderComponent = LoaderComponent(table: table)
        return copy
    }

    /// The descriptor for the entry function to return: built by the first call, the same
    /// pointer for the life of the process afterwards. Nil when the host's ABI version is
    /// older than this kit's.
    public func descriptor(host: UnsafePointer<webimage_host>) -> UnsafeRawPointer? {
        guard host.pointee.abi_version >= 1 else { return nil }
        return PublishedDescriptor.publish { build(host: host) }
    }

    private func build(host: UnsafePointer<webimage_host>) -> UnsafePointer<webimage_plugin_descriptor> {
        var kinds: UInt32 = 0
        var coderTable: UnsafePointer<webimage_coder>?
        if let coderComponent {
            ExportedCoder.install(
                ExportedCoder(coder: coderComponent.coder, allocator: PixelAllocator(host: host)))
            coderTable = CoderTable.make(for: coderComponent.coder, threadSafe: coderComponent.threadSafe)
            kinds |= WEBIMAGE_KIND_CODER
        }
        if loaderComponent != nil { kinds |= WEBIMAGE_KIND_LOADER }
        let descriptor = UnsafeMutablePointer<webimage_plugin_descriptor>.allocate(capacity: 1)
        descriptor.initialize(
            to: webimage_plugin_descriptor(
                abi_version: WEBIMAGE_PLUGIN_ABI_VERSION,
                struct_size: UInt32(MemoryLayout<webimage_plugin_descriptor>.size),
                name: strdup(name)!, version: strdup(version)!, kinds: kinds, reserved: 0,
                coder: coderTable, loader: loaderComponent?.table, memory_cache: nil, disk_cache: nil, transformer: nil)
        )
        return UnsafePointer(descriptor)
    }
}

/// Shorthands for a library that exports one kind.
public enum PluginExport {
    /// The descriptor of a library whose only kind is `coder`; see ``PluginDescriptorBuilder``.
    /// - Parameter threadSafe: the coder may be called from several threads at once; default true.
    public static func coder(
        _ coder: some ImageCoder, name: String, version: String, host: UnsafePointer<webimage_host>,
        threadSafe: Bool = true
    ) -> UnsafeRawPointer? {
        PluginDescriptorBuilder(name: name, version: version).coder(coder, threadSafe: threadSafe)
            .descriptor(host: host)
    }
}

/// The one descriptor of this library, kept for the life of the process.
enum PublishedDescriptor {
    /// The descriptor's address; the memory it points at is never freed or changed once published.
    private static let address = Mutex<UInt?>(nil)

    /// The published descriptor, built by `build` on the first call only.
    static func publish(
        _ build: () -> UnsafePointer<webimage_plugin_descriptor>
    ) -> UnsafeRawPointer {
        let published = address.withLock { address in
            if let address { return address }
            let built = UInt(bitPattern: build())
            address = built
            return built
        }
        return UnsafeRawPointer(bitPattern: published)!
    }
}
