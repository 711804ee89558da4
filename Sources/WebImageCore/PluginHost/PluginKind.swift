import CWebImagePlugin

/// What a plugin provides. Only `.coder` is implemented by this ABI version; the others
/// are reserved (docs/architecture.md).
public enum PluginKind: String, Sendable, Codable, CaseIterable {
    case coder
    case loader
    case memoryCache = "memory-cache"
    case diskCache = "disk-cache"
    case transformer

    /// The `WEBIMAGE_KIND_*` bit.
    public var bit: UInt32 {
        switch self {
        case .coder: WEBIMAGE_KIND_CODER
        case .loader: WEBIMAGE_KIND_LOADER
        case .memoryCache: WEBIMAGE_KIND_MEMORY_CACHE
        case .diskCache: WEBIMAGE_KIND_DISK_CACHE
        case .transformer: WEBIMAGE_KIND_TRANSFORMER
        }
    }

    /// The kinds whose bits are set in `mask`.
    public static func kinds(in mask: UInt32) -> [PluginKind] {
        allCases.filter { mask & $0.bit != 0 }
    }
}
