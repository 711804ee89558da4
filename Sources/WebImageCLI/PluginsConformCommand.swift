import ArgumentParser
import WebImageCLISupport
import WebImageCoderVerifier
import WebImageCore

/// `webimage plugins conform NAME FILE...`: loads one plugin and checks its coder against
/// the coder contract with ``CoderVerifier``, using the given valid files. Prints each
/// failure and exits with status 1 when there is any.
struct PluginsConformCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "conform",
        abstract: "Check one plugin's coder against the coder contract with sample files; exit 1 if a check fails.")

    @OptionGroup var pluginOptions: PluginOptions

    @Argument(help: "The plugin's name, as in its manifest.")
    var name: String

    @Argument(help: "Valid image files in the plugin's formats.")
    var files: [String]

    @Option(help: ArgumentHelp("How long the checks may run before the rest are skipped.", valueName: "seconds"))
    var timeLimit = 60

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one image file to check the plugin with") }
        guard timeLimit > 0 else { throw ValidationError("--time-limit must be positive, not \(timeLimit)") }
    }

    func run() throws {
        let host = pluginOptions.makeHost()
        guard host.plugins.contains(where: { $0.name == name }) else {
            let searched = host.searchPath.directories.joined(separator: ", ")
            throw CLIError("no plugin named '\(name)' (searched: \(searched))")
        }
        let coder: any ImageCoder
        if host.isIsolated(name) {
            coder = try host.isolatedCoder(named: name)
        } else if let opened = try host.open(name).coder {
            coder = opened
        } else {
            throw CLIError("plugin '\(name)' has no coder to check")
        }
        let fixtures = try files.map { VerifierFixture(name: $0, bytes: try InputFile.read($0)) }
        var options = VerifierOptions()
        options.timeLimit = .seconds(timeLimit)
        let report = CoderVerifier.verify(coder: coder, fixtures: fixtures, options: options)
        if json {
            try JSONOutput.print(report)
        } else {
            for failure in report.failures { print("FAIL \(failure)") }
            for skipped in report.skipped { print("SKIP \(skipped)") }
            let failures = report.failures.count
            print(
                "\(name): \(report.checksRun) checks on \(fixtures.count) \(fixtures.count == 1 ? "file" : "files"), "
                    + "\(failures) \(failures == 1 ? "failure" : "failures"), \(report.skipped.count) skipped")
        }
        if !report.passed { throw ExitCode(CLIError.failureStatus) }
    }
}
