import ArgumentParser
import WebImageCLISupport
import WebImageCore

/// `webimage plugins list`: every plugin found, read from manifests only (no library is opened).
struct PluginsListCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the plugins found, from their manifests only (no library is loaded).")

    @OptionGroup var pluginOptions: PluginOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// The JSON document: search path (and its trusted folders), plugins, the plugins the
    /// policy refuses, one warning per takeover attempt, and manifest faults.
    struct Report: Encodable {
        let searchPath: [String]
        let trustedFolders: [String]
        let plugins: [ManifestReport]
        let refused: [RefusalReport]
        let warnings: [String]
        let faults: [FaultReport]

        enum CodingKeys: String, CodingKey {
            case plugins, refused, warnings, faults
            case searchPath = "search_path"
            case trustedFolders = "trusted_folders"
        }
    }

    func run() throws {
        let host = pluginOptions.makeHost(reportingWarnings: false)
        let faults = host.faults
        if json {
            try JSONOutput.print(
                Report(
                    searchPath: host.searchPath.directories, trustedFolders: host.searchPath.trustedDirectories,
                    plugins: host.plugins.map(ManifestReport.init), refused: host.refusals.map(RefusalReport.init),
                    warnings: PluginText.warnings(host), faults: faults.map(FaultReport.init)))
            return
        }
        print("Search path:")
        for directory in host.searchPath.directories {
            print("  \(directory)\(host.searchPath.trust(ofDirectory: directory) == .trusted ? "  (trusted)" : "")")
        }
        if host.plugins.isEmpty {
            print("\nNo plugins found.")
        }
        for plugin in host.plugins {
            print("\n" + PluginText.title(plugin))
            for line in PluginText.manifestLines(plugin) { print(line) }
        }
        if !host.refusals.isEmpty {
            print("\nRefused (\(host.refusals.count)):")
            for line in host.refusals.flatMap({ PluginText.refusalLines($0, indent: "  ") }) { print(line) }
        }
        if !host.warnings.isEmpty {
            print("\nWarnings (\(host.warnings.count)):")
            for line in host.warnings.flatMap({ PluginText.warningLines($0, indent: "  ") }) { print(line) }
        }
        if !faults.isEmpty {
            print("\nFaults (\(faults.count)):")
            for line in faults.flatMap({ PluginText.faultLines($0, indent: "  ") }) { print(line) }
        }
    }
}
