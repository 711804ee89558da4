import ArgumentParser
import FoundationEssentials
import WebImageCLISupport
import WebImageServer

/// `webimage sign PATH [--key HEX --salt HEX]`: the image server's path signed, as
/// ``ImageURLSigner`` signs it (imgproxy's scheme), printed on one line.
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: ServerCommandSummary.sign,
        discussion: """
            Prints /SIGNATURE/PATH: SIGNATURE is the URL-safe base64, without padding, of \
            HMAC-SHA256(key, salt + PATH). The key and the salt are hexadecimal, from the flags, \
            else from WEBIMAGE_SERVE_KEY and WEBIMAGE_SERVE_SALT. See docs/serving.md.
            """)

    /// The variables read when a flag is absent.
    static let keyVariable = "WEBIMAGE_SERVE_KEY"
    static let saltVariable = "WEBIMAGE_SERVE_SALT"

    @Argument(help: "The path after the signature, starting with '/', such as /rs:fit:256:256/plain/http://host/a.jpg.")
    var path: String

    @Option(help: ArgumentHelp("The signing key in hexadecimal; default $\(keyVariable).", valueName: "hex"))
    var key: String?

    @Option(help: ArgumentHelp("The salt in hexadecimal; default $\(saltVariable).", valueName: "hex"))
    var salt: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let key = key ?? environment[Self.keyVariable] else {
            throw CLIError(
                "no signing key: give --key HEX and --salt HEX, or set \(Self.keyVariable) and \(Self.saltVariable)")
        }
        guard let salt = salt ?? environment[Self.saltVariable] else {
            throw CLIError("no salt: give --salt HEX or set \(Self.saltVariable)")
        }
        guard path.hasPrefix("/") else { throw CLIError("the path '\(path)' does not start with '/'") }
        let signer: ImageURLSigner
        do {
            signer = try ImageURLSigner(keyHex: key, saltHex: salt)
        } catch {
            throw CLIError("cannot sign: \(error.message)")
        }
        print(signer.sign(path: path))
    }
}
