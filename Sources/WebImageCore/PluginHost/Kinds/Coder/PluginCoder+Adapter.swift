import CWebImagePlugin

extension PluginCoder: PluginKindAdapter {
    public static var kind: PluginKind { .coder }

    /// Wraps the descriptor's coder table and checks its formats against the manifest's
    /// `coder` section: the same format names, and each format's MIME type first in its
    /// manifest entry.
    public convenience init(descriptor: webimage_plugin_descriptor, plugin: DiscoveredPlugin) throws(PluginFault) {
        func mismatch(_ detail: String) -> PluginFault {
            PluginFault(.descriptorMismatch, file: plugin.libraryPath, plugin: plugin.name, detail: detail)
        }
        guard let table = descriptor.coder else {
            throw mismatch("the coder kind is set but the coder table is NULL")
        }
        do {
            try self.init(table: table, pluginName: plugin.name)
        } catch {
            throw mismatch("invalid coder table: \(error)")
        }
        let manifestFormats = plugin.manifest.coder?.formats ?? []
        let declared = formats.map(\.name).sorted()
        let listed = manifestFormats.map(\.name).sorted()
        guard declared == listed else {
            throw mismatch(
                "the library handles formats [\(declared.joined(separator: ", "))], the manifest lists [\(listed.joined(separator: ", "))]"
            )
        }
        for format in formats {
            let entry = manifestFormats.first { $0.name == format.name }!
            guard entry.mimeTypes.first == format.mimeType else {
                throw mismatch(
                    "format '\(format.name)' has MIME type \(format.mimeType) in the library, \(entry.mimeTypes.first ?? "none") in the manifest"
                )
            }
        }
    }
}
