import CWebImagePlugin
import WebImagePluginKit
import WebPCoder

/// The WebP plugin's entry point: exports ``WebPImageCoder`` through the C ABI.
@_cdecl("webimage_plugin_entry")
public func webimagePluginEntry(_ host: UnsafePointer<webimage_host>) -> UnsafeRawPointer? {
    PluginDescriptorBuilder(name: WebPImageCoder.pluginName, version: WebPImageCoder.pluginVersion)
        .coder(WebPImageCoder())
        .descriptor(host: host)
}
