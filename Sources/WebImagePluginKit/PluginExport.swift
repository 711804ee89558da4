import CWebImagePlugin
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
    private(set) var transformerComponent: ExportedTransformers?
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

    /// Adds the coder kind. The table exposes incremental decoding when `coder` is a
    /// ``ProgressiveImageCoder`` and animations when it is an ``AnimatedImageCoder``.
    /// - Parameter threadSafe: the coder may be called from several threads at once; default true.
    public func coder(_ coder: some ImageCoder, threadSafe: Bool = true) -> Self {
        var copy = self
        copy.coderComponent = CoderComponent(coder: coder, threadSafe: threadSafe)
        return copy
    }

    /// Adds the transformer kind: the host makes transformer `name` (one of `names`, the
    /// manifest's `transformer.names`) through `make`, with the parameters of
    /// `--transform NAME:k=v,...` in order. The transformers' keys reach the host behind the
    /// plugin's name; their output is copied once into the host's memory.
    /// - Parameter threadSafe: the transformers may run on several threads at once; default true.
    public func transformers(
        _ names: [String], threadSafe: Bool = true,
        make:
            @escaping @Sendable (_ name: String, _ parameters: [(key: String, value: String)])
            throws(ImageTransformError) -> any ImageTransformer
    ) -> Self {
        var copy = self
        copy.transformerComponent = ExportedTransformers(
            names: names, threadSafe: threadSafe, make: make, allocator: .system)
        return copy
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
    func build(host: UnsafePointer<webimage_host>) -> UnsafePointer<webimage_plugin_descriptor> {
        var kinds: UInt32 = 0
        var coderTable: UnsafePointer<webimage_coder>?
        if let coderComponent {
            ExportedCoder.install(
                ExportedCoder(coder: coderComponent.coder, allocator: PixelAllocator(host: host)))
            coderTable = CoderTable.make(for: coderComponent.coder, threadSafe: coderComponent.threadSafe)
            kinds |= WEBIMAGE_KIND_CODER
        }
        var transformerTable: UnsafePointer<webimage_transformer>?
        if let transformerComponent {
            let exported = transformerComponent.allocating(from: PixelAllocator(host: host))
            ExportedTransformers.install(exported)
            transformerTable = TransformerTable.make(for: exported)
            kinds |= WEBIMAGE_KIND_TRANSFORMER
        }
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
                coder: coderTable, loader: loaderComponent?.table, memory_cache: memoryCache,
                disk_cache: diskCache, transformer: transformerTable))
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
    private static let address = TrackedMutex<UInt?>(nil)

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
