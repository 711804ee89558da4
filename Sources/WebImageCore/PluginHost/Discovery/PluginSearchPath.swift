import FoundationEssentials

/// The folders searched for plugin manifests, in order: the host app's trusted folders, the
/// host app's other folders, then `WEBIMAGE_PLUGIN_PATH` (colon-separated), then the install
/// folder next to the running executable (`<exe dir>/../lib/webimage/plugins`); for an app,
/// ``application(pluginsDirectory:environment:executablePath:)`` adds the plugins SwiftPM
/// built with it.
///
/// Plugins whose manifest lies in one of ``trustedDirectories`` are the trusted, bundled set
/// (``PluginTrust/trusted``); by default that is only the install folder.
public struct PluginSearchPath: Sendable, Equatable {
    /// The environment variable with extra folders.
    public static let environmentVariable = "WEBIMAGE_PLUGIN_PATH"
    /// The install folder relative to the install prefix.
    public static let installedFolder = "lib/webimage/plugins"
    /// The install folder relative to the executable's folder.
    public static let installedRelativePath = "../" + installedFolder

    /// Absolute, standardised folders in search order, without repeats.
    public let directories: [String]
    /// The folders of ``directories`` whose plugins are trusted, in search order.
    public let trustedDirectories: [String]
    /// Manifest folders whose manifests name libraries of another folder, by manifest folder
    /// (both absolute and standardised): a relative `library` is read from that folder, and
    /// a trusted plugin's library must lie inside it. Default none: libraries lie beside
    /// their manifests.
    public let libraryDirectories: [String: String]

    /// A search path of exactly these folders.
    /// - Parameters:
    ///   - directories: the folders, in search order; empty entries and repeats are dropped.
    ///   - trustedDirectories: the folders whose plugins are trusted; default none. A trusted
    ///     folder missing from `directories` is searched after them.
    ///   - libraryDirectories: the folder of the libraries, by manifest folder, for manifests
    ///     kept apart from their libraries; default none.
    public init(
        directories: [String], trustedDirectories: [String] = [], libraryDirectories: [String: String] = [:]
    ) {
        let trusted = Self.standardized(trustedDirectories)
        let searched = Self.standardized(directories + trusted)
        self.directories = searched
        self.trustedDirectories = searched.filter { trusted.contains($0) }
        self.libraryDirectories = Dictionary(
            libraryDirectories.map { (Self.standardized([$0.key])[0], Self.standardized([$0.value])[0]) },
            uniquingKeysWith: { first, _ in first })
    }

    /// The standard search path.
    /// - Parameters:
    ///   - hostDirectories: folders given by the host app (for example `--plugin-path`),
    ///     searched after `trustedHostDirectories`; their plugins are untrusted.
    ///   - trustedHostDirectories: the host app's own bundled folders, searched first; their
    ///     plugins are trusted. Default none.
    ///   - environment: where `WEBIMAGE_PLUGIN_PATH` is read; default the process environment.
    ///   - executablePath: the running program; default `/proc/self/exe`.
    public static func standard(
        hostDirectories: [String] = [],
        trustedHostDirectories: [String] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executablePath: String? = nil
    ) -> PluginSearchPath {
        var directories = trustedHostDirectories + hostDirectories
        var trusted = trustedHostDirectories
        if let fromEnvironment = environment[environmentVariable] {
            directories += fromEnvironment.split(separator: ":").map(String.init)
        }
        if let executable = executablePath ?? currentExecutablePath() {
            let folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
            let installed = folder.appendingPathComponent(installedRelativePath).path
            directories.append(installed)
            trusted.append(installed)
        }
        return PluginSearchPath(directories: directories, trustedDirectories: trusted)
    }

    /// The search path of an application: `pluginsDirectory`, the app's own plugins folder,
    /// first and trusted (the app chose it, so its coders run in-process); then the folders of
    /// `WEBIMAGE_PLUGIN_PATH` (untrusted, as in ``standard(hostDirectories:trustedHostDirectories:environment:executablePath:)``);
    /// the install folder next to the executable (trusted); last the plugins SwiftPM built
    /// with the executable (trusted): the manifests of the `WebImagePluginManifests` resource
    /// bundle and the `libWebImage*.so` products beside the executable, when the app depends
    /// on those products.
    /// - Parameters:
    ///   - pluginsDirectory: the app's own plugins folder; default nil, none.
    ///   - environment: where `WEBIMAGE_PLUGIN_PATH` is read; default the process environment.
    ///   - executablePath: the running program; default `/proc/self/exe`.
    public static func application(
        pluginsDirectory: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        executablePath: String? = nil
    ) -> PluginSearchPath {
        let standard = standard(
            trustedHostDirectories: pluginsDirectory.map { [$0] } ?? [], environment: environment,
            executablePath: executablePath)
        guard let executable = executablePath ?? currentExecutablePath(),
            let built = BuiltPluginManifests.directory(besideExecutable: executable)
        else { return standard }
        let libraries = URL(fileURLWithPath: executable).deletingLastPathComponent().path
        return PluginSearchPath(
            directories: standard.directories + [built], trustedDirectories: standard.trustedDirectories + [built],
            libraryDirectories: [built: libraries])
    }

    /// The folder relative libraries of manifests in `directory` are read from:
    /// ``libraryDirectories`` when it names `directory`, else `directory` itself.
    public func libraryDirectory(forManifestsIn directory: String) -> String {
        libraryDirectories[URL(fileURLWithPath: directory).standardizedFileURL.path] ?? directory
    }

    /// The trust of plugins whose manifest lies in `directory` (one of ``directories``).
    public func trust(ofDirectory directory: String) -> PluginTrust {
        trustedDirectories.contains(URL(fileURLWithPath: directory).standardizedFileURL.path) ? .trusted : .untrusted
    }

    /// The resolved path of the running executable.
    public static func currentExecutablePath() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// Absolute, standardised, non-empty folders in order, without repeats.
    private static func standardized(_ directories: [String]) -> [String] {
        var seen = Set<String>()
        return directories.filter { !$0.isEmpty }.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            .filter { seen.insert($0).inserted }
    }
}
