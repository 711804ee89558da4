import CWebImagePlugin
import PNGCoder
import WebImagePluginKit

/// The PNG plugin's entry point: exports ``PNGImageCoder`` through the C ABI.
@_cdecl("webimage_plugin_entry")
public func webimagePluginEntry(_ host: UnsafePointer<webimage_host>) -> UnsafeRawPointer? {
    PluginDescriptorBuilder(name: PNGImageCoder.pluginName, version: PNGImageCoder.pluginVersion)
        .coder(PNGImageCoder())
        .descriptor(host: host)
}
