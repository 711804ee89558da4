import ArgumentParser

#if canImport(Glibc)
    import Glibc
#endif

/// The `main` of the command-line executables.
public enum CommandMain {
    /// Parses the process's arguments as `Root`, sets up logging and runs the chosen command.
    ///
    /// Failures about the input (``CLIError``, ``InputFileError``, `ImageCodingError`,
    /// `PluginFault`) print one `error: ...` line and exit with status 1; argument-syntax
    /// errors, help and explicit exit codes are left to ArgumentParser.
    public static func run<Root: ParsableCommand>(_ root: Root.Type) -> Never {
        do {
            var command = try root.parseAsRoot()
            let verbose = (command as? any PluginHostCommand)?.pluginOptions.verbose ?? false
            Diagnostics.bootstrapLogging(verbose: verbose)
            try command.run()
            Diagnostics.restoreStandardError()
            Glibc.exit(0)
        } catch {
            guard let message = CLIError.message(for: error) else {
                Diagnostics.restoreStandardError()
                root.exit(withError: error)
            }
            Diagnostics.printError(message)
            Diagnostics.restoreStandardError()
            Glibc.exit(CLIError.failureStatus)
        }
    }
}
