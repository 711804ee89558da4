import ArgumentParser
import FoundationEssentials
import WebImageCore

/// How `fetch`, `get` and `prefetch` talk to servers: connections, HTTP version, headers,
/// credentials, certificates, timeouts and retries, turned into the downloader's
/// configuration (``apply(to:)``) that every request of the command goes out with.
package struct LoaderOptions: ParsableArguments {
    package init() {}

    @Option(help: "Most connections open at once to one host (default 6).")
    package var maxHostConnections = 6

    @Flag(help: "Speak HTTP/1.1 only.")
    package var http1 = false

    @Flag(help: "Allow HTTP/2 over TLS (the default).")
    package var http2 = false

    @Option(
        name: .customLong("header"),
        help: ArgumentHelp(
            "A request header 'Name: value' (repeatable); 'Name:' with no value removes a default one.",
            valueName: "header"))
    package var headers: [String] = []

    @Option(help: ArgumentHelp("Credentials for basic or digest authentication.", valueName: "user:password"))
    package var user: String?

    @Flag(help: "Accept TLS certificates that do not verify.")
    package var insecure = false

    @Option(
        help: ArgumentHelp(
            "Seconds over which a transfer must average 1024 bytes a second, so also the most without a byte (default 15).",
            valueName: "seconds"))
    package var timeout: Double = 15

    @Option(
        name: .customLong("max-time"),
        help: ArgumentHelp(
            "Most seconds for each transfer, from its start to its last byte (default 60; 0 for none).",
            valueName: "seconds"))
    package var maxTime: Double?

    @Option(help: "Retries of transient failures: network errors, timeouts, 429 and 5xx (default 0).")
    package var retries = 0

    package func validate() throws {
        guard (1...1000).contains(maxHostConnections) else {
            throw ValidationError("--max-host-connections must be from 1 to 1000")
        }
        guard !(http1 && http2) else { throw ValidationError("--http1 and --http2 exclude each other") }
        guard timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be between 0 and 86400 seconds")
        }
        if let maxTime, !(0...86_400).contains(maxTime) {
            throw ValidationError("--max-time must be from 0 to 86400 seconds")
        }
        guard retries >= 0 else { throw ValidationError("--retries must not be negative") }
        for header in headers where !header.contains(":") {
            throw ValidationError("--header '\(header)' is not 'Name: value'")
        }
        if let user, !user.contains(":") { throw ValidationError("--user must be user:password") }
    }

    /// Sets the connections per host, the timeouts, the retries and the headers, and a request
    /// modifier that gives every request the credentials and the HTTP version and certificate
    /// switches (after any modifier already set).
    package func apply(to configuration: inout ImageDownloaderConfiguration) {
        configuration.maxConnectionsPerHost = UInt32(maxHostConnections)
        configuration.idleTimeout = .milliseconds(Int64(timeout * 1000))
        if let maxTime {
            configuration.maxTransferTime = maxTime > 0 ? .milliseconds(Int64((maxTime * 1000).rounded(.up))) : nil
        }
        configuration.retry = RetryPolicy(maxRetries: retries)
        for header in headers {
            let parts = header.split(separator: ":", maxSplits: 1)
            let value = parts.count > 1 ? String(parts[1]).trimmingWhitespace : ""
            configuration.headers[String(parts[0]).trimmingWhitespace] = value.isEmpty ? nil : value
        }
        let credential = user.map { user in
            let parts = user.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            return LoadRequest.Credential(user: String(parts[0]), password: parts.count > 1 ? String(parts[1]) : "")
        }
        let http1 = http1
        let insecure = insecure
        let earlier = configuration.requestModifier
        configuration.requestModifier = { request in
            guard var request = earlier.map({ $0(request) }) ?? request else { return nil }
            if let credential { request.credential = credential }
            if http1 { request.options.remove(.allowHTTP2) }
            if insecure { request.options.insert(.allowInvalidCertificates) }
            return request
        }
    }
}
