import CWebImagePlugin

extension PluginCoder: PluginKindAdapter {
    public static var kind: PluginKind { .coder }

    /// Wraps the descriptor's coder table and checks its formats against the manifest's
    /// `coder` section: the same format names, and each format's MIME type first in its
    /// manifest entry.
    public convenience init(descriptor: webimage_plugin_descriptor, plugin: DiscoveredPlugin) throws(PluginFault) {
        let table = try plugin.requireTable(descriptor.coder, of: "coder")
        do {
            try self.init(table: table, pluginName: plugin.name)
        } catch {
            throw plugin.mismatch("invalid coder table: \(error)")
        }
        let manifestFormats = plugin.manifest.coder?.formats ?? []
        let declared = formats.map(\.name).sorted()
        let listed = manifestFormats.map(\.name).sorted()
        guard declared == listed else {
            throw plugin.mismatch(
                "the library handles formats [\(declared.joined(separator: ", "))], the manifest lists [\(listed.joined(separator: ", "))]"
            )
        }
        for format in formats {
            let entry = manifestFormats.first { $0.name == format.name }!
            guard entry.mimeTypes.first == format.mimeType else {
                throw plugin.mismatch(
                    "format '\(format.name)' has MIME type \(format.mimeType) in the library, \(entry.mimeTypes.first ?? "none") in the manifest"
                )
            }
        }
    }
}
