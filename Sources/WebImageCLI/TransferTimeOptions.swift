import ArgumentParser
import WebImageCore

/// `--max-time`, curl's name for the total deadline of each transfer, shared by `fetch`,
/// `get` and `prefetch`.
struct TransferTimeOptions: ParsableArguments {
    @Option(
        name: .customLong("max-time"),
        help: ArgumentHelp(
            "Most seconds for each transfer, from its start to its last byte (default 60; 0 for none).",
            valueName: "seconds"))
    var maxTime: Double?

    func validate() throws {
        if let maxTime, !(0...86_400).contains(maxTime) {
            throw ValidationError("--max-time must be from 0 to 86400 seconds")
        }
    }

    /// Sets the downloader's total deadline when `--max-time` is given.
    func apply(to configuration: inout ImageDownloaderConfiguration) {
        guard let maxTime else { return }
        configuration.maxTransferTime = maxTime > 0 ? .milliseconds(Int64((maxTime * 1000).rounded(.up))) : nil
    }
}
