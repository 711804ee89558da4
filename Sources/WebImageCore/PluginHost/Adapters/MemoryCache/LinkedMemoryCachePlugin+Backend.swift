import WebImagePluginDescriptor

extension LinkedMemoryCachePlugin {
    /// The plugin linked into this process, used in-process through the same adapter as the loaded library.
    public static func backend() -> PluginMemoryCacheBackend {
        try! PluginMemoryCacheBackend(table: table, pluginName: pluginName)
    }
}
