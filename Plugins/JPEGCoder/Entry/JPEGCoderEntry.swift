import CWebImagePlugin
import JPEGCoder
import WebImagePluginKit

/// The JPEG plugin's entry point: exports ``JPEGImageCoder`` through the C ABI.
@_cdecl("webimage_plugin_entry")
public func webimagePluginEntry(_ host: UnsafePointer<webimage_host>) -> UnsafeRawPointer? {
    PluginDescriptorBuilder(name: JPEGImageCoder.pluginName, version: JPEGImageCoder.pluginVersion)
        .coder(JPEGImageCoder())
        .descriptor(host: host)
}
