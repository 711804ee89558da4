/// Whether a plugin comes from the trusted, bundled set.
///
/// Discovery decides it from the folder that holds the plugin's manifest: folders of
/// ``PluginSearchPath/trustedDirectories`` (by default only the install folder next to the
/// executable) give trusted plugins; every other folder gives untrusted ones.
public enum PluginTrust: String, Sendable {
    case trusted, untrusted
}
