import CWebImagePlugin

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
/// of their own here, so one library can export, say, a coder and a transformer. This module
/// links only the C ABI: the kinds whose tables are written in C (caches, loaders) are added
/// here, the coder and transformer kinds by `WebImagePluginKit`, which needs the core's types.
public struct PluginDescriptorBuilder: Sendable {
    /// Builds a component's C table when the descriptor is first built, with the host's services.
    package typealias TableBuilder<Table> = @Sendable (UnsafePointer<webimage_host>) -> UnsafePointer<Table>

    /// The loader component: a C table (loaders run their own I/O thread in C).
    struct LoaderComponent: @unchecked Sendable {
        // @unchecked: the table is immutable and lives for the life of the process.
        let table: UnsafePointer<webimage_loader>
    }

    let name: String
    let version: String
    /// The coder kind's table, set by `WebImagePluginKit`.
    package var coderTable: TableBuilder<webimage_coder>?
    /// The transformer kind's table, set by `WebImagePluginKit`.
    package var transformerTable: TableBuilder<webimage_transformer>?
    /// The address of a disk cache table written in C, which lives as long as the process.
    private(set) var diskCacheTable: UInt?
    /// The address of a memory cache table written in C, which lives as long as the process.
    private(set) var memoryCacheTable: UInt?
    private(set) var loaderComponent: LoaderComponent?

    /// - Parameters:
    ///   - name: must equal the manifest's `name`.
    ///   - version: must equal the manifest's `version`.
    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    /// Adds the disk cache kind with a table written in C (a plugin's shim), which must live
    /// as long as the process.
    public func diskCache(_ table: UnsafePointer<webimage_disk_cache>) -> Self {
        var copy = self
        copy.diskCacheTable = UInt(bitPattern: table)
        return copy
    }

    /// Adds the memory cache kind with a table written in C (a plugin's shim), which must live
    /// as long as the process.
    public func memoryCache(_ table: UnsafePointer<webimage_memory_cache>) -> Self {
        var copy = self
        copy.memoryCacheTable = UInt(bitPattern: table)
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

    /// A new descriptor with every component's table; `descriptor(host:)` publishes the first.
    package func build(host: UnsafePointer<webimage_host>) -> UnsafePointer<webimage_plugin_descriptor> {
        var kinds: UInt32 = 0
        let coder = coderTable?(host)
        if coder != nil { kinds |= WEBIMAGE_KIND_CODER }
        let transformer = transformerTable?(host)
        if transformer != nil { kinds |= WEBIMAGE_KIND_TRANSFORMER }
        let diskCache = diskCacheTable.flatMap { UnsafePointer<webimage_disk_cache>(bitPattern: $0) }
        if diskCache != nil { kinds |= WEBIMAGE_KIND_DISK_CACHE }
        let memoryCache = memoryCacheTable.flatMap { UnsafePointer<webimage_memory_cache>(bitPattern: $0) }
        if memoryCache != nil { kinds |= WEBIMAGE_KIND_MEMORY_CACHE }
        if loaderComponent != nil { kinds |= WEBIMAGE_KIND_LOADER }
        let descriptor = UnsafeMutablePointer<webimage_plugin_descriptor>.allocate(capacity: 1)
        descriptor.initialize(
            to: webimage_plugin_descriptor(
                abi_version: WEBIMAGE_PLUGIN_ABI_VERSION,
                struct_size: UInt32(MemoryLayout<webimage_plugin_descriptor>.size),
                name: strdup(name)!, version: strdup(version)!, kinds: kinds, reserved: 0,
                coder: coder, loader: loaderComponent?.table, memory_cache: memoryCache,
                disk_cache: diskCache, transformer: transformer))
        return UnsafePointer(descriptor)
    }
}
