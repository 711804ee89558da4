import CWebImagePlugin

extension PluginLoader: PluginKindAdapter {
    public static var kind: PluginKind { .loader }

    /// Wraps the descriptor's loader table and checks its schemes against the manifest's
    /// `loader` section (the same set).
    public convenience init(descriptor: webimage_plugin_descriptor, plugin: DiscoveredPlugin) throws(PluginFault) {
        let table = try plugin.requireTable(descriptor.loader, of: "loader")
        do {
            try self.init(table: table, pluginName: plugin.name)
        } catch {
            throw plugin.mismatch("invalid loader table: \(error)")
        }
        let declared = schemes.sorted()
        let listed = (plugin.manifest.loader?.schemes ?? []).sorted()
        guard declared == listed else {
            throw plugin.mismatch(
                "the library serves schemes [\(declared.joined(separator: ", "))], the manifest lists [\(listed.joined(separator: ", "))]"
            )
        }
    }
}
