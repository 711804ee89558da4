import CWebImagePlugin
import RedisCache
import WebImagePluginDescriptor

/// The redis cache plugin's entry point: exports the C table of ``RedisCachePlugin``.
@_cdecl("webimage_plugin_entry")
public func webimagePluginEntry(_ host: UnsafePointer<webimage_host>) -> UnsafeRawPointer? {
    PluginDescriptorBuilder(name: RedisCachePlugin.pluginName, version: RedisCachePlugin.pluginVersion)
        .diskCache(RedisCachePlugin.table(host: host))
        .descriptor(host: host)
}
