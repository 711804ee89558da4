import Foundation

/// The folders searched for plugin manifests, in order: the host app's folders, then
/// `WEBIMAGE_PLUGIN_PATH` (colon-separated), then the install folder next to the
/// running executable (`<exe dir>/../lib/webimage/plugins`).
public struct PluginSearchPath: Sendable, Equatable {
    /// The environment variable with extra folders.
    public static let environmentVariable = "WEBIMAGE_PLUGIN_PATH"
    /// The install folder relative to the executable's folder.
    public static let installedRelativePath = "../lib/webimage/plugins"

    /// Absolute, standardised folders in search order, without repeats.
    public let directories: [String]

    public init(directories: [String]) {
        var seen = Set<String>()
        self.directories = directories.filter { !$0.isEmpty }.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            .filter { seen.insert($0).inserted }
    }

    /// The standard search path.
    /// - Parameters:
    ///   - hostDirectories: folders given by the host app (for example `--plugin-path`), searched first.
    ///   - environment: where `WEBIMAGE_PLUGIN_PATH` is read; default the process environment.
    ///   - executablePath: the running program; default `/proc/self/exe`.
    public static func standard(
        hostDirectories: [String] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executablePath: String? = nil
    ) -> PluginSearchPath {
        var directories = hostDirectories
        if let fromEnvironment = environment[environmentVariable] {
            directories += fromEnvironment.split(separator: ":").map(String.init)
        }
        if let executable = executablePath ?? currentExecutablePath() {
            let folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
            directories.append(folder.appendingPathComponent(installedRelativePath).path)
        }
        return PluginSearchPath(directories: directories)
    }

    /// The resolved path of the running executable.
    public static func currentExecutablePath() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }
}
