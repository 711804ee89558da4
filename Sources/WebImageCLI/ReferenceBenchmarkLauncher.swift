import FoundationEssentials
import Glibc
import WebImageCLISupport

/// Runs `webimage-bench`, the benchmark executable that links the plain C reference
/// decoders, in place of this process.
enum ReferenceBenchmarkLauncher {
    /// The benchmark executable's file name; it lives in the folder of `webimage` itself
    /// (the build folder, or `bin/` of an installed prefix).
    static let executableName = "webimage-bench"

    /// Replaces this process with `webimage-bench` run with `arguments`, so its output and
    /// exit status are this command's.
    /// - Throws: ``CLIError`` when the executable is not next to this one or cannot be run.
    static func replaceProcess(arguments: [String]) throws -> Never {
        let ownPath =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        let path = URL(fileURLWithPath: ownPath).deletingLastPathComponent().appendingPathComponent(executableName).path
        guard access(path, X_OK) == 0 else {
            let missing = errno == ENOENT
            throw CLIError(
                "--reference needs \(executableName), which links the C reference decoders, next to webimage: "
                    + "'\(path)' is \(missing ? "not installed" : "not executable") "
                    + "(build it with 'swift build --product \(executableName)'; 'make install' installs it)")
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        Diagnostics.restoreStandardError()
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        for argument in argv { free(argument) }
        throw CLIError("cannot run '\(path)': \(reason)")
    }
}
