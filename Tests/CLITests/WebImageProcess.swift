import Foundation
import WebImageTestSupport

/// What one run of `webimage` produced.
struct CommandResult {
    let status: Int32
    let standardOutput: String
    let standardError: String

    /// The lines of standard output, without the final empty line.
    var outputLines: [String] { Self.lines(standardOutput) }

    /// The lines of standard error, without the final empty line.
    var errorLines: [String] { Self.lines(standardError) }

    /// Standard output parsed as a JSON object.
    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(standardOutput.utf8)) as? [String: Any] else {
            throw HarnessError("standard output is not a JSON object: \(standardOutput)")
        }
        return object
    }

    private static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// Runs the built `webimage` tool as a subprocess.
enum WebImageProcess {
    /// Runs `webimage arguments...` and waits for it.
    ///
    /// - Parameters:
    ///   - environment: variables to set; `WEBIMAGE_PLUGIN_PATH` and the plugin policy's
    ///     variables are removed from the inherited environment unless given here, so only the
    ///     folders and lists a test names apply. Without `WEBIMAGE_CACHE_DIR` or
    ///     `XDG_CACHE_HOME` here, the disk cache is a fresh folder of this run's, removed after
    ///     it, so no run shares entries with another or writes to the user's cache (a test
    ///     that keeps a cache across runs names it, with `--cache-dir` or here).
    ///   - executable: the `webimage` to run; default the built one (``BuildProducts/executable``).
    ///   - standardInput: what the tool reads on standard input; default nothing (nil: the test's own).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], executable: URL? = nil,
        standardInput: String? = nil
    ) async throws -> CommandResult {
        let outputFolder = try TemporaryDirectory()
        let outputURL = outputFolder.url.appendingPathComponent("stdout")
        let errorURL = outputFolder.url.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: outputURL.path, contents: nil),
            FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        else { throw HarnessError("cannot create the output files in \(outputFolder.path)") }
        let outputHandle = try FileHandle(forWritingTo: outputURL)
        let errorHandle = try FileHandle(forWritingTo: errorURL)

        let process = Process()
        process.executableURL = try executable ?? BuildProducts.executable
        process.arguments = arguments
        var inherited = ProcessInfo.processInfo.environment
        for variable in [
            "WEBIMAGE_PLUGIN_PATH", "WEBIMAGE_PLUGIN_ALLOW", "WEBIMAGE_PLUGIN_DENY", "WEBIMAGE_PLUGIN_ALLOW_OVERRIDE",
        ] {
            inherited[variable] = nil
        }
        var environment = environment
        if environment["WEBIMAGE_CACHE_DIR"] == nil && environment["XDG_CACHE_HOME"] == nil {
            environment["WEBIMAGE_CACHE_DIR"] = outputFolder.file("cache")
        }
        process.environment = inherited.merging(environment) { $1 }
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        if let standardInput {
            let inputURL = outputFolder.url.appendingPathComponent("stdin")
            try Data(standardInput.utf8).write(to: inputURL)
            process.standardInput = try FileHandle(forReadingFrom: inputURL)
        }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        try outputHandle.close()
        try errorHandle.close()
        return CommandResult(
            status: status,
            standardOutput: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }

    /// Runs `webimage arguments... --plugin-path <folder>`.
    static func run(_ arguments: [String], plugins folder: PluginsFolder) async throws -> CommandResult {
        try await run(arguments + ["--plugin-path", folder.path])
    }

    /// Runs `webimage arguments...` on a pseudo-terminal (`script` of util-linux, in Debian's
    /// essential `bsdutils`): standard output and standard error both go to the terminal, whose
    /// output (newlines as `\r\n`) is the result's standard output.
    static func runOnTerminal(_ arguments: [String]) async throws -> CommandResult {
        let command = try ([BuildProducts.executable.path] + arguments).map { argument in
            "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
        return try await WebImageProcess.run(
            ["-q", "-e", "-c", command, "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script"),
            standardInput: "")
    }
}
