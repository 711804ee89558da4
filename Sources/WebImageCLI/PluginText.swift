import FoundationEssentials
import WebImageCore

/// Human-readable lines about plugins, shared by the `plugins` commands.
enum PluginText {
    /// The header line of a plugin: name, version, kinds, the coder's priority and the ABI version.
    static func title(_ plugin: DiscoveredPlugin) -> String {
        let manifest = plugin.manifest
        let kinds = manifest.kinds.map(\.rawValue).joined(separator: ", ")
        let priority = manifest.coder.map { "; priority \($0.priority)" } ?? ""
        return "\(manifest.name) \(manifest.version)  [\(kinds)\(priority); ABI \(manifest.abiVersion)]"
    }

    /// The indented lines describing a manifest: summary, paths, trust, then each kind's section.
    static func manifestLines(_ plugin: DiscoveredPlugin, indent: String = "  ") -> [String] {
        let manifest = plugin.manifest
        var lines: [String] = []
        if let summary = manifest.summary { lines.append(indent + summary) }
        lines.append(indent + "manifest: \(plugin.manifestPath)")
        lines.append(indent + "library:  \(plugin.libraryPath)")
        lines.append(indent + "trust:    \(plugin.trust.rawValue)")
        for format in manifest.formats {
            lines.append(indent + "format \(format.name)")
            lines.append(indent + "  MIME types:   \(list(format.mimeTypes))")
            lines.append(indent + "  extensions:   \(list(format.extensions))")
            lines.append(indent + "  signatures:   \(list(format.signatures))")
            lines.append(indent + "  capabilities: \(list(format.capabilities))")
        }
        if let loader = manifest.loader { lines.append(indent + "loader schemes: \(list(loader.schemes))") }
        if manifest.memoryCache != nil { lines.append(indent + "memory cache") }
        if manifest.diskCache != nil { lines.append(indent + "disk cache") }
        if let transformer = manifest.transformer {
            lines.append(indent + "transformer names: \(list(transformer.names))")
        }
        return lines
    }

    /// A fault on two lines: `<plugin>: <reason>: <file>`, then the detail indented.
    static func faultLines(_ fault: PluginFault, indent: String = "") -> [String] {
        let subject = fault.plugin.map { "\($0): " } ?? ""
        return [indent + "\(subject)\(fault.reason.rawValue): \(fault.file)", indent + "  \(fault.detail)"]
    }

    /// A refused plugin on two lines: `[warning: ]<plugin>: <detail>`, then its manifest
    /// indented. Takeover attempts are warnings.
    static func refusalLines(_ refusal: PluginRefusal, indent: String = "") -> [String] {
        let label = refusal.isWarning ? "warning: " : ""
        return [
            indent + "\(label)\(refusal.plugin.name): \(refusal.detail)",
            indent + "  manifest: \(refusal.plugin.manifestPath)",
        ]
    }

    /// Every takeover attempt as a one-line warning naming the plugin and what it tried to
    /// take, then the host's warnings (libraries outside a trusted folder, overlapping trusted plugins).
    static func warnings(_ host: PluginHost) -> [String] {
        host.refusals.filter(\.isWarning).map {
            "warning: plugin '\($0.plugin.name)' (\($0.plugin.manifestPath)): \($0.detail)"
        } + host.warnings.map { "warning: \($0)" }
    }

    /// A host warning on two lines: `warning: <plugin>: <detail>`, then its manifest indented
    /// (for a library without a manifest: `warning: <file name>: <detail>`, then the library).
    static func warningLines(_ warning: PluginWarning, indent: String = "") -> [String] {
        [indent + "warning: \(warningSubject(warning)): \(warning.detail)", indent + "  \(warningFile(warning))"]
    }

    /// The plugin a warning is about, or the file name of a library that no manifest names.
    static func warningSubject(_ warning: PluginWarning) -> String {
        warning.plugin?.name ?? URL(fileURLWithPath: warning.file).lastPathComponent
    }

    /// `manifest: <path>`, or `library: <path>` for a library that no manifest names.
    static func warningFile(_ warning: PluginWarning) -> String {
        "\(warning.plugin == nil ? "library" : "manifest"): \(warning.file)"
    }

    /// Comma-separated items, or `none`.
    static func list(_ items: [String]) -> String {
        items.isEmpty ? "none" : items.joined(separator: ", ")
    }
}
