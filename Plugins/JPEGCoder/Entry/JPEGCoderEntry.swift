import CWebImagePlugin
import JPEGCoder
import WebImagePluginKit

/// The JPEG plugin's entry point: exports ``JPEGImageCoder`` through the C ABI.
@_cdecl("webimage_plugin_entry")
public func webimagePluginEntry(_ host: UnsafePointer<webimage_host>) -> UnsafeRawPointer? {
    PluginExport.coder(
        JPEGImageCoder(), name: JPEGImageCoder.pluginName, version: JPEGImageCoder.pluginVersion, host: host)
}
