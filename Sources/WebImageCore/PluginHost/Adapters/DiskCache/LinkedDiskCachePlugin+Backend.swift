import WebImagePluginDescriptor

extension LinkedDiskCachePlugin {
    /// The plugin linked into this process, used in-process through the same adapter as the
    /// loaded library, with the core's host services.
    public static func backend() -> PluginDiskCacheBackend {
        try! PluginDiskCacheBackend(table: table(host: HostServices.host), pluginName: pluginName)
    }
}
