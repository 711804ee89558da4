import CurlLoader
import WebImageCore

/// The curl plugin's table, linked into the tests, as a ``PluginLoader``.
enum CurlLoaderFactory {
    static let loader: PluginLoader = {
        do {
            return try PluginLoader.wrapping(CurlLoaderPlugin.table, pluginName: CurlLoaderPlugin.pluginName)
        } catch {
            fatalError("the curl loader table is invalid: \(error)")
        }
    }()
}
