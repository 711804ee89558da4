/// The manifests of this folder travel with a SwiftPM build as the resources of the
/// `WebImagePluginManifests` target: SwiftPM copies them into a `<package>_WebImagePluginManifests.resources`
/// folder beside the executables and the `libWebImage*.so` plugin products it builds, where
/// ``PluginSearchPath/application(pluginsDirectory:environment:executablePath:)`` finds them.
/// `make install` copies the same files into `lib/webimage/plugins` instead.
public enum BundledPluginManifests {
    /// How the name of the resource folder SwiftPM makes ends (the package name comes first).
    public static let resourceFolderSuffix = "_WebImagePluginManifests.resources"
}
