import ArgumentParser
import WebImageCLISupport
import WebImageCore

/// `webimage plugins inspect NAME`: the manifest of one plugin, then what its loaded
/// descriptor declares. Exits with status 1 when there is no such plugin or it fails to load.
struct PluginsInspectCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show one plugin's manifest, load it and show its descriptor.")

    @OptionGroup var pluginOptions: PluginOptions

    @Argument(help: "The plugin's name, as in its manifest.")
    var name: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// The JSON document: `descriptor` when the plugin loaded, `fault` when it did not.
    struct Report: Encodable {
        let manifest: ManifestReport
        let descriptor: DescriptorReport?
        let fault: FaultReport?
    }

    func run() throws {
        let host = pluginOptions.makeHost()
        guard let plugin = host.plugins.first(where: { $0.name == name }) else {
            let searched = host.searchPath.directories.joined(separator: ", ")
            throw CLIError("no plugin named '\(name)' (searched: \(searched))")
        }
        let outcome: Result<OpenedPlugin, PluginFault>
        if let fault = host.scanInChild(name), [.entryCrashed, .entryHung].contains(fault.reason) {
            outcome = .failure(fault)
        } else {
            do throws(PluginFault) {
                outcome = .success(try host.open(name))
            } catch {
                outcome = .failure(error)
            }
        }
        let descriptor: DescriptorReport? =
            switch outcome {
            case .success(let loaded): DescriptorReport(loaded)
            case .failure: nil
            }
        if json {
            let fault = outcome.failureValue.map(FaultReport.init)
            try JSONOutput.print(Report(manifest: ManifestReport(plugin), descriptor: descriptor, fault: fault))
        } else {
            print(PluginText.title(plugin))
            for line in PluginText.manifestLines(plugin) { print(line) }
            if let descriptor {
                print("descriptor (loaded)")
                for line in descriptor.textLines(indent: "  ") { print(line) }
            }
        }
        if let fault = outcome.failureValue { throw fault }
    }
}

extension Result {
    /// The error of a failure, nil for a success.
    fileprivate var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
