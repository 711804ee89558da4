import ArgumentParser
import WebImageCore

/// How the commands that load URLs (`fetch`, `get`, `prefetch`) report the ones that failed:
/// one `error: URL: reason` line each on standard error, in the order the URLs were given,
/// then, when there were several URLs, one `error: N of M images failed` line; the exit
/// status is 1. Standard output keeps only results.
public enum URLFailures {
    /// Writes `error: URL: reason` on standard error, the URL cut as
    /// `URLText.abbreviated(_:limit:)` does; `reason` must not repeat the URL.
    public static func print(url: String, reason: String) {
        Diagnostics.printError("\(URLText.abbreviated(url)): \(reason)")
    }

    /// Ends a command whose failed URLs were printed with ``print(url:reason:)``: returns when
    /// none failed; else throws the closing count (``CLIError`` `N of M <noun> failed`) when
    /// there were several URLs, or `ExitCode.failure` (nothing more printed) for one.
    public static func finish(failed: Int, of total: Int, noun: String) throws {
        guard failed > 0 else { return }
        guard total > 1 else { throw ExitCode.failure }
        throw CLIError("\(failed) of \(total) \(noun) failed")
    }
}
