import FoundationEssentials
import Glibc
import WebImageCLISupport

/// An executable `webimage` hands a command over to, which lives in the folder of `webimage`
/// itself (the build folder, or `bin/` of an installed prefix) and replaces this process.
///
/// Each one keeps libraries out of `webimage` that most of its commands never use, so that
/// every `webimage` run maps, relocates and scans less at start.
struct SiblingExecutable {
    /// The file name, such as `webimage-bench`.
    let name: String
    /// What it does that `webimage` does not, as the error when it is missing says it after
    /// "which": "links the C reference decoders".
    let purpose: String
    /// Who needs it, for the error when it is missing: a flag or a command.
    let neededBy: String

    /// `webimage-bench`: the benchmarks linked with the plain C reference decoders, run by
    /// `bench decode --reference`.
    static let referenceBenchmark = SiblingExecutable(
        name: "webimage-bench", purpose: "links the C reference decoders", neededBy: "--reference")

    /// `webimage-serve`: the image server (HTTP, TLS, metrics) and its signer, run by
    /// `webimage serve` and `webimage sign` (`command`).
    static func imageServer(for command: String) -> SiblingExecutable {
        SiblingExecutable(name: "webimage-serve", purpose: "holds the image server", neededBy: "webimage \(command)")
    }

    /// The path next to this executable.
    var path: String {
        let ownPath =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: ownPath).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Replaces this process with the executable run with `arguments`, so its output, exit
    /// status and process ID are this command's (signals reach it as they would reach this one).
    /// - Throws: ``CLIError`` when the executable is not next to this one or cannot be run.
    func replaceProcess(arguments: [String]) throws -> Never {
        let path = path
        guard access(path, X_OK) == 0 else {
            let missing = errno == ENOENT
            throw CLIError(
                "\(neededBy) needs \(name), which \(purpose), next to webimage: "
                    + "'\(path)' is \(missing ? "not installed" : "not executable") "
                    + "(build it with 'swift build --product \(name)'; 'make install' installs it)")
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        Diagnostics.restoreStandardError()
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        for argument in argv { free(argument) }
        throw CLIError("cannot run '\(path)': \(reason)")
    }
}
