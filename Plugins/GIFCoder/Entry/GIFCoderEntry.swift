import CWebImagePlugin
import GIFCoder
import WebImagePluginKit

/// The GIF plugin's entry point: exports ``GIFImageCoder`` through the C ABI.
@_cdecl("webimage_plugin_entry")
public func webimagePluginEntry(_ host: UnsafePointer<webimage_host>) -> UnsafeRawPointer? {
    PluginDescriptorBuilder(name: GIFImageCoder.pluginName, version: GIFImageCoder.pluginVersion)
        .coder(GIFImageCoder())
        .descriptor(host: host)
}
