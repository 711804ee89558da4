import ArgumentParser
import WebImageCLISupport
import WebImageCore

/// `webimage plugins verify`: loads every plugin and reports each as ok or with its fault.
/// Each plugin is opened in a child process first, so an entry function that crashes or
/// hangs is reported as a fault and never run in this process.
/// Exits with status 1 when there is any fault (from manifests or from loading).
struct PluginsVerifyCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Load every plugin and report faults; exit status 1 if there is any.")

    @OptionGroup var pluginOptions: PluginOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// One plugin's outcome.
    struct PluginStatus: Encodable {
        let name: String
        let version: String
        let library: String
        /// `ok` or `fault`.
        let status: String
        let fault: FaultReport?
    }

    /// The JSON document: `ok` is false when `faults` is not empty.
    struct Report: Encodable {
        let ok: Bool
        let plugins: [PluginStatus]
        /// Every fault: manifest faults first, then load faults.
        let faults: [FaultReport]
    }

    func run() throws {
        let host = pluginOptions.makeHost()
        let manifestFaults = host.faults
        let faults = host.verify()
        let statuses = host.plugins.map { (plugin: $0, fault: host.openFault(of: $0.name)) }
        if json {
            try JSONOutput.print(
                Report(
                    ok: faults.isEmpty,
                    plugins: statuses.map {
                        PluginStatus(
                            name: $0.plugin.name, version: $0.plugin.manifest.version, library: $0.plugin.libraryPath,
                            status: $0.fault == nil ? "ok" : "fault", fault: $0.fault.map(FaultReport.init))
                    },
                    faults: faults.map(FaultReport.init)))
        } else {
            printText(statuses: statuses, manifestFaults: manifestFaults, total: faults.count)
        }
        if !faults.isEmpty { throw ExitCode(CLIError.failureStatus) }
    }

    private func printText(
        statuses: [(plugin: DiscoveredPlugin, fault: PluginFault?)], manifestFaults: [PluginFault], total: Int
    ) {
        if statuses.isEmpty && manifestFaults.isEmpty {
            print("No plugins found in: \(PluginText.list(pluginOptions.searchPath.directories))")
        }
        for (plugin, fault) in statuses {
            if let fault {
                print("FAULT " + PluginText.faultLines(fault).joined(separator: "\n      "))
            } else {
                print("ok    \(plugin.name) \(plugin.manifest.version): \(plugin.libraryPath)")
            }
        }
        for fault in manifestFaults {
            print("FAULT " + PluginText.faultLines(fault).joined(separator: "\n      "))
        }
        let okCount = statuses.filter { $0.fault == nil }.count
        print("\(okCount) ok, \(total) \(total == 1 ? "fault" : "faults")")
    }
}
