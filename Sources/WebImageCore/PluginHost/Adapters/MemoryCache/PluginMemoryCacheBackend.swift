import CWebImagePlugin

/// A plugin's memory cache kind: its `webimage_memory_cache` table, from which caches are
/// created with a ``CacheConfiguration`` (``make(_:)``).
public struct PluginMemoryCacheBackend: PluginKindAdapter, @unchecked Sendable {
    // @unchecked: `table` points at the plugin's constant table, which lives as long as the
    // process (plugins are never unloaded).
    public static var kind: PluginKind { .memoryCache }

    /// The plugin's name, for messages.
    public let pluginName: String
    let table: UnsafePointer<webimage_memory_cache>

    /// Wraps `table` after checking it has every function.
    public init(table: UnsafePointer<webimage_memory_cache>, pluginName: String) throws(PluginFault) {
        let size = Int(table.pointee.struct_size)
        guard size >= MemoryLayout<webimage_memory_cache>.size else {
            throw PluginFault(
                .descriptorMismatch, file: "", plugin: pluginName,
                detail: "the memory cache table is \(size) bytes, too small for its functions")
        }
        self.table = table
        self.pluginName = pluginName
    }

    public init(descriptor: webimage_plugin_descriptor, plugin: DiscoveredPlugin) throws(PluginFault) {
        let table = try plugin.requireTable(descriptor.memory_cache, of: "memory cache")
        do {
            try self.init(table: table, pluginName: plugin.name)
        } catch {
            throw plugin.mismatch(error.detail)
        }
    }

    /// Creates a cache with `configuration`.
    /// - Throws: ``CacheError`` `.invalidArgument` for an unknown option or a bad value, with the plugin's message.
    public func make(_ configuration: CacheConfiguration = CacheConfiguration()) throws(CacheError) -> PluginMemoryCache
    {
        let messages = ErrorMessageBuffer()
        var instance: OpaquePointer?
        let status = configuration.withUnsafeConfig { config in
            messages.withError { table.pointee.create(config, MemoryCacheValueBox.callbacks, &instance, $0) }
        }
        guard status == WEBIMAGE_STATUS_OK, let instance else {
            throw PluginStatus(status).cacheError(messages.message(or: "\(pluginName): creating the cache failed"))
        }
        return PluginMemoryCache(backend: self, instance: instance)
    }
}
