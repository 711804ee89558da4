import ArgumentParser
import WebImageCLISupport
import WebImageCore

/// `webimage plugins verify`: loads every plugin and reports each as ok or with its fault.
/// Each plugin is opened in a child process first, so an entry function that crashes or
/// hangs is reported as a fault and never run in this process. Plugins the policy refuses
/// are never loaded: takeover attempts are shown as warnings (`WARN`), the others as denied
/// (`DENY`); libraries of trusted folders that lie elsewhere and overlapping trusted plugins
/// are warnings (`WARN`) too. Exits with status 1 when there is any fault (from manifests or from loading);
/// refusals alone leave the status 0.
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
        /// The plugins the policy refuses (never loaded).
        let refused: [RefusalReport]
        /// One line per takeover attempt, naming the plugin and what it tried to take.
        let warnings: [String]
        /// Every fault: manifest faults first, then load faults.
        let faults: [FaultReport]
    }

    func run() throws {
        let host = pluginOptions.makeHost(reportingWarnings: false)
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
                    refused: host.refusals.map(RefusalReport.init), warnings: PluginText.warnings(host),
                    faults: faults.map(FaultReport.init)))
        } else {
            printText(
                statuses: statuses, manifestFaults: manifestFaults, refusals: host.refusals, warnings: host.warnings,
                total: faults.count)
        }
        if !faults.isEmpty { throw ExitCode(CLIError.failureStatus) }
    }

    private func printText(
        statuses: [(plugin: DiscoveredPlugin, fault: PluginFault?)], manifestFaults: [PluginFault],
        refusals: [PluginRefusal], warnings: [PluginWarning], total: Int
    ) {
        if statuses.isEmpty && manifestFaults.isEmpty && refusals.isEmpty {
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
        for refusal in refusals {
            print("\(refusal.isWarning ? "WARN  " : "DENY  ")\(refusal.plugin.name): \(refusal.detail)")
            print("        manifest: \(refusal.plugin.manifestPath)")
        }
        for warning in warnings {
            print("WARN  \(PluginText.warningSubject(warning)): \(warning.detail)")
            print("        \(PluginText.warningFile(warning))")
        }
        let okCount = statuses.filter { $0.fault == nil }.count
        let refusalWarningCount = refusals.filter(\.isWarning).count
        let warningCount = refusalWarningCount + warnings.count
        let deniedCount = refusals.count - refusalWarningCount
        print(
            "\(okCount) ok, \(total) \(total == 1 ? "fault" : "faults")"
                + (warningCount > 0 ? ", \(warningCount) \(warningCount == 1 ? "warning" : "warnings")" : "")
                + (deniedCount > 0 ? ", \(deniedCount) denied" : ""))
    }
}
