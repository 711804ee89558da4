import CWebImagePlugin
import CurlLoader
import WebImagePluginDescriptor

/// The curl plugin's entry point: exports the C loader table of ``CurlLoaderPlugin``.
@_cdecl("webimage_plugin_entry")
public func webimagePluginEntry(_ host: UnsafePointer<webimage_host>) -> UnsafeRawPointer? {
    PluginDescriptorBuilder(name: CurlLoaderPlugin.pluginName, version: CurlLoaderPlugin.pluginVersion)
        .loader(CurlLoaderPlugin.table)
        .descriptor(host: host)
}
