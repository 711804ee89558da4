import Foundation

/// The folders searched for plugin manifests, in order: the host app's trusted folders, the
/// host app's other folders, then `WEBIMAGE_PLUGIN_PATH` (colon-separated), then the install
/// folder next to the running executable (`<exe dir>/../lib/webimage/plugins`).
///
/// Plugins whose manifest lies in one of ``trustedDirectories`` are the trusted, bundled set
/// (``PluginTrust/trusted``); by default that is only the install folder.
public struct PluginSearchPath: Sendable, Equatable {
    /// The environment variable with extra folders.
    public static let environmentVariable = "WEBIMAGE_PLUGIN_PATH"
    /// The install folder relative to the executable's folder.
    public static let installedRelativePath = "../lib/webimage/plugins"

    /// Absolute, standardised folders in search order, without repeats.
    public let directories: [String]
    /// The folders of ``directories`` whose plugins are trusted, in search order.
    public let trustedDirectories: [String]

    /// A search path of exactly these folders.
    /// - Parameters:
    ///   - directories: the folders, in search order; empty entries and repeats are dropped.
    ///   - trustedDirectories: the folders whose plugins are trusted; default none. A trusted
    ///     folder missing from `directories` is searched after them.
    public init(directories: [String], trustedDirectories: [String] = []) {
        let trusted = Self.standardized(trustedDirectories)
        let searched = Self.standardized(directories + trusted)
        self.directories = searched
        self.trustedDirectories = searched.filter { trusted.contains($0) }
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
