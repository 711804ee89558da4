import CWebImagePlugin
import MemoryCache
import WebImagePluginDescriptor

/// The memory cache plugin's entry point: exports the C table of ``MemoryCachePlugin``.
@_cdecl("webimage_plugin_entry")
public func webimagePluginEntry(_ host: UnsafePointer<webimage_host>) -> UnsafeRawPointer? {
    PluginDescriptorBuilder(name: MemoryCachePlugin.pluginName, version: MemoryCachePlugin.pluginVersion)
        .memoryCache(MemoryCachePlugin.table)
        .descriptor(host: host)
}
