import CWebImagePlugin
import HEIFCoder
import WebImagePluginKit

/// The HEIF plugin's entry point: exports ``HEIFImageCoder`` through the C ABI.
@_cdecl("webimage_plugin_entry")
public func webimagePluginEntry(_ host: UnsafePointer<webimage_host>) -> UnsafeRawPointer? {
    PluginDescriptorBuilder(name: HEIFImageCoder.pluginName, version: HEIFImageCoder.pluginVersion)
        .coder(HEIFImageCoder())
        .descriptor(host: host)
}
