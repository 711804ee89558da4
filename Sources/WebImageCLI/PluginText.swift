import WebImageCore

/// Human-readable lines about plugins, shared by the `plugins` commands.
enum PluginText {
    /// The header line of a plugin: name, version, kinds, priority and ABI version.
    static func title(_ plugin: DiscoveredPlugin) -> String {
        let manifest = plugin.manifest
        let kinds = manifest.kinds.map(\.rawValue).joined(separator: ", ")
        return
            "\(manifest.name) \(manifest.version)  [\(kinds); priority \(manifest.priority); ABI \(manifest.abiVersion)]"
    }

    /// The indented lines describing a manifest: summary, paths and formats.
    static func manifestLines(_ plugin: DiscoveredPlugin, indent: String = "  ") -> [String] {
        var lines: [String] = []
        if let summary = plugin.manifest.summary { lines.append(indent + summary) }
        lines.append(indent + "manifest: \(plugin.manifestPath)")
        lines.append(indent + "library:  \(plugin.libraryPath)")
        for format in plugin.manifest.formats {
            lines.append(indent + "format \(format.name)")
            lines.append(indent + "  MIME types:   \(list(format.mimeTypes))")
            lines.append(indent + "  extensions:   \(list(format.extensions))")
            lines.append(indent + "  signatures:   \(list(format.signatures))")
            lines.append(indent + "  capabilities: \(list(format.capabilities))")
        }
        return lines
    }

    /// A fault on two lines: `<plugin>: <reason>: <file>`, then the detail indented.
    static func faultLines(_ fault: PluginFault, indent: String = "") -> [String] {
        let subject = fault.plugin.map { "\($0): " } ?? ""
        return [indent + "\(subject)\(fault.reason.rawValue): \(fault.file)", indent + "  \(fault.detail)"]
    }

    /// Comma-separated items, or `none`.
    static func list(_ items: [String]) -> String {
        items.isEmpty ? "none" : items.joined(separator: ", ")
    }
}
