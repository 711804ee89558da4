import CWebImagePlugin

/// The toolkit's release, as `webimage --version` prints it.
public enum WebImageVersion {
    /// The release: `1.0.0`.
    public static let release = "1.0.0"
    /// The newest plugin ABI version this host loads (`WEBIMAGE_PLUGIN_ABI_VERSION`).
    public static let pluginABI = WEBIMAGE_PLUGIN_ABI_VERSION
    /// One line: `webimage 1.0.0 (plugin ABI 1)`.
    public static var description: String { "webimage \(release) (plugin ABI \(pluginABI))" }
}
