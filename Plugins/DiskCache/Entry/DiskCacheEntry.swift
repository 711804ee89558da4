import CWebImagePlugin
import DiskCache
import WebImagePluginDescriptor

/// The disk cache plugin's entry point: exports the C table of ``DiskCachePlugin``.
@_cdecl("webimage_plugin_entry")
public func webimagePluginEntry(_ host: UnsafePointer<webimage_host>) -> UnsafeRawPointer? {
    PluginDescriptorBuilder(name: DiskCachePlugin.pluginName, version: DiskCachePlugin.pluginVersion)
        .diskCache(DiskCachePlugin.table(host: host))
        .descriptor(host: host)
}
