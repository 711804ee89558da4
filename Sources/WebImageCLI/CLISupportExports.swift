/// The command-line plumbing `webimage` shares with `webimage-bench` (errors, diagnostics,
/// JSON and text output, plugin options, input files, the bench options), re-exported so
/// every file of this executable sees it without importing it.
@_exported import WebImageCLISupport
