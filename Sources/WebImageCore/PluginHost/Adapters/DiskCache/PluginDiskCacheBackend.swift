import CWebImagePlugin

/// A plugin's disk cache kind: its `webimage_disk_cache` table, from which caches are opened
/// with a ``CacheConfiguration`` (``open(_:)``).
public struct PluginDiskCacheBackend: PluginKindAdapter, @unchecked Sendable {
    // @unchecked: `table` points at the plugin's constant table, which lives as long as the
    // process (plugins are never unloaded).
    public static var kind: PluginKind { .diskCache }

    /// The plugin's name, for messages.
    public let pluginName: String
    let table: UnsafePointer<webimage_disk_cache>

    /// Wraps `table` after checking it has every required function.
    public init(table: UnsafePointer<webimage_disk_cache>, pluginName: String) throws(PluginFault) {
        let size = Int(table.pointee.struct_size)
        guard size >= MemoryLayout<webimage_disk_cache>.offset(of: \webimage_disk_cache.path)! else {
            throw PluginFault(
                .descriptorMismatch, file: "", plugin: pluginName,
                detail: "the disk cache table is \(size) bytes, too small for its required functions")
        }
        self.table = table
        self.pluginName = pluginName
    }

    public init(descriptor: webimage_plugin_descriptor, plugin: DiscoveredPlugin) throws(PluginFault) {
        let table = try plugin.requireTable(descriptor.disk_cache, of: "disk cache")
        do {
            try self.init(table: table, pluginName: plugin.name)
        } catch {
            throw plugin.mismatch(error.detail)
        }
    }

    /// Opens (creating when needed) the cache `configuration` describes.
    /// - Throws: ``CacheError`` `.invalidArgument` for an unknown option or a bad value, with the plugin's message.
    public func open(_ configuration: CacheConfiguration = CacheConfiguration()) throws(CacheError) -> PluginDiskCache {
        let messages = ErrorMessageBuffer()
        var instance: OpaquePointer?
        let status = configuration.withUnsafeConfig { config in
            messages.withError { table.pointee.open(config, &instance, $0) }
        }
        guard status == WEBIMAGE_STATUS_OK, let instance else {
            throw PluginStatus(status).cacheError(messages.message(or: "\(pluginName): opening the cache failed"))
        }
        return PluginDiskCache(backend: self, instance: instance)
    }
}
