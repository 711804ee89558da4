import ArgumentParser
import WebImageCLISupport
import WebImageCore

/// `webimage-serve`: the executable of `webimage serve` and `webimage sign`. `webimage`
/// replaces itself with it for those two commands, with the same arguments, so the server's
/// libraries (Hummingbird, SwiftNIO, BoringSSL, Prometheus) are mapped by the server alone.
/// Its command name is `webimage`, so usage lines and errors read as they do in `webimage`.
@main
struct ImageServerTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "The image server of the webimage tool: run as 'webimage serve' and 'webimage sign'.",
        version: WebImageVersion.description,
        subcommands: [ServeCommand.self, SignCommand.self])

    /// Usage errors begin `error: ` as in `webimage`.
    static var _errorPrefix: String { "error: " }

    /// Parses the arguments, sets up logging and runs the chosen command (``CommandMain/run(_:)``).
    static func main() {
        CommandMain.run(Self.self)
    }
}
