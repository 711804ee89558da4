import CWebImagePlugin
import WebImageCore

/// What a loaded plugin's descriptor declares, as JSON and text.
struct DescriptorReport: Encodable {
    /// One format of the coder table.
    struct CoderFormat: Encodable {
        let name: String
        let mimeType: String
        let capabilities: [String]

        enum CodingKeys: String, CodingKey {
            case name, capabilities
            case mimeType = "mime_type"
        }
    }

    let abiVersion: UInt32
    let name: String
    let version: String
    let kinds: [String]
    /// Kinds the plugin declares that this host has no adapter for (a plugin newer than the host).
    let kindsWithoutAdapter: [String]
    /// Nil when the plugin has no coder table.
    let threadSafe: Bool?
    let formats: [CoderFormat]

    enum CodingKeys: String, CodingKey {
        case name, version, kinds, formats
        case abiVersion = "abi_version"
        case threadSafe = "thread_safe"
        case kindsWithoutAdapter = "kinds_without_adapter"
    }

    /// Reads the descriptor of `plugin`. Only the name and version fields are read from
    /// the C struct: ``PluginLibrary`` has checked they lie within its declared size.
    init(_ plugin: OpenedPlugin) {
        abiVersion = plugin.abiVersion
        name = Self.string(at: \.name, in: plugin.descriptor)
        version = Self.string(at: \.version, in: plugin.descriptor)
        kinds = plugin.kinds.map(\.rawValue)
        kindsWithoutAdapter = plugin.kindsWithoutAdapter.map(\.rawValue)
        threadSafe = plugin.coder?.isThreadSafe
        formats = (plugin.coder?.formats ?? []).map {
            CoderFormat(name: $0.name, mimeType: $0.mimeType, capabilities: $0.capabilities.names)
        }
    }

    /// The C string that the descriptor field `field` points to.
    private static func string(
        at field: KeyPath<webimage_plugin_descriptor, UnsafePointer<CChar>>,
        in descriptor: UnsafePointer<webimage_plugin_descriptor>
    ) -> String {
        let offset = MemoryLayout<webimage_plugin_descriptor>.offset(of: field)!
        return String(cString: UnsafeRawPointer(descriptor).load(fromByteOffset: offset, as: UnsafePointer<CChar>.self))
    }

    /// The report as indented lines.
    func textLines(indent: String) -> [String] {
        var lines = [
            indent + "ABI version: \(abiVersion)",
            indent + "name:        \(name)",
            indent + "version:     \(version)",
            indent + "kinds:       \(PluginText.list(kinds))",
        ]
        if !kindsWithoutAdapter.isEmpty {
            lines.append(indent + "not used:    \(PluginText.list(kindsWithoutAdapter)) (this host has no adapter)")
        }
        if let threadSafe {
            lines.append(indent + "thread-safe: \(threadSafe ? "yes" : "no")")
        }
        for format in formats {
            lines.append(
                indent + "coder format \(format.name) (\(format.mimeType)): \(PluginText.list(format.capabilities))")
        }
        return lines
    }
}
