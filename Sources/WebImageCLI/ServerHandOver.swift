import ArgumentParser
import Glibc
import WebImageCLISupport

/// `webimage serve` and `webimage sign` run in `webimage-serve`
/// (``SiblingExecutable/imageServer(for:)``), so that the server's libraries (Hummingbird,
/// SwiftNIO, BoringSSL, Prometheus) are loaded by the server alone: `webimage` replaces
/// itself with `webimage-serve` before it parses anything, with the same arguments.
enum ServerHandOver {
    /// The commands handed over.
    static let commands: Set<String> = ["serve", "sign"]

    /// Replaces this process with `webimage-serve` when `arguments` (without the executable's
    /// path) name a server command, or ask for its help (`help serve`); returns otherwise.
    /// A missing `webimage-serve` is one error line and exit status 1.
    static func handOverIfServerCommand(_ arguments: [String]) {
        guard let command = serverCommand(in: arguments) else { return }
        do {
            try SiblingExecutable.imageServer(for: command).replaceProcess(arguments: arguments)
        } catch {
            Diagnostics.printError(CLIError.message(for: error) ?? "\(error)")
            Glibc.exit(CLIError.failureStatus)
        }
    }

    /// The server command `arguments` run (`serve`, `sign`), or nil.
    static func serverCommand(in arguments: [String]) -> String? {
        let named = arguments.first == "help" ? arguments.dropFirst().first : arguments.first
        return named.flatMap { commands.contains($0) ? $0 : nil }
    }
}

/// `serve` as `webimage --help` lists it; run by `webimage-serve` (``ServerHandOver``).
struct ServeHandOverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: ServerCommandSummary.serve)

    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []

    func run() throws {
        try SiblingExecutable.imageServer(for: "serve").replaceProcess(arguments: ["serve"] + arguments)
    }
}

/// `sign` as `webimage --help` lists it; run by `webimage-serve` (``ServerHandOver``).
struct SignHandOverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sign", abstract: ServerCommandSummary.sign)

    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []

    func run() throws {
        try SiblingExecutable.imageServer(for: "sign").replaceProcess(arguments: ["sign"] + arguments)
    }
}
