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

    /// The JSON document: search path, plugins and manifest faults.
    struct Report: Encodable {
        let searchPath: [String]
        let plugins: [ManifestReport]
        let faults: [FaultReport]

        enum CodingKeys: String, CodingKey {
            case plugins, faults
            case searchPath = "search_path"
        }
    }

    func run() throws {
        let host = pluginOptions.makeHost()
        let faults = host.faults
        if json {
            try JSONOutput.print(
                Report(
                    searchPath: host.searchPath.directories, plugins: host.plugins.map(ManifestReport.init),
                    faults: faults.map(FaultReport.init)))
            return
        }
        print("Search path:")
        for directory in host.searchPath.directories { print("  \(directory)") }
        if host.plugins.isEmpty {
            print("\nNo plugins found.")
        }
        for plugin in host.plugins {
            print("\n" + PluginText.title(plugin))
            for line in PluginText.manifestLines(plugin) { print(line) }
        }
        if !faults.isEmpty {
            print("\nFaults (\(faults.count)):")
            for line in faults.flatMap({ PluginText.faultLines($0, indent: "  ") }) { print(line) }
        }
    }
}
