import CWebImagePlugin
import HEIFCoder
import WebImagePluginKit

/// The HEIF plugin's entry point: exports ``HEIFImageCoder`` through the C ABI.
@_cdecl("webimage_plugin_entry")
public func webimagePluginEntry(_ host: UnsafePointer<webimage_host>) -> UnsafeRawPointer? {
    PluginExport.coder(
        HEIFImageCoder(), name: HEIFImageCoder.pluginName, version: HEIFImageCoder.pluginVersion, host: host)
}
