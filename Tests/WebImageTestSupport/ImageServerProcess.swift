import Foundation
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// A `webimage serve` started by a test on 127.0.0.1 (or another listen address) with a port of
/// its own choosing, in the test's network namespace or one the test made, over a plugins
/// folder with every bundled plugin: its address once it prints `listening on`, its standard
/// output (the access log) and error, and a stop by signal.
public final class ImageServerProcess: Sendable {
    /// `http://HOST:PORT` as the server prints it once it listens; 127.0.0.1 for `0.0.0.0`.
    public let baseURL: String
    public let port: Int
    /// Where the server runs, and where ``HTTPExchange/send(_:method:headers:in:within:)`` must
    /// run to reach it; nil for the test's own namespace.
    public let namespace: NetworkNamespace?
    /// The plugins folder the server uses (every bundled plugin).
    public let plugins: PluginsFolder
    /// The disk caches' folder the server was given when the test named none (no `--cache-dir`
    /// argument, no `WEBIMAGE_CACHE_DIR` or `XDG_CACHE_HOME` in `environment`): a fresh one,
    /// removed with the server, so no test shares results with another or writes to the
    /// user's cache; nil when the test named one.
    public let ownCacheFolder: TemporaryDirectory?
    private let process: Process
    private let output = OutputBuffer()

    /// Starts `webimage serve --listen LISTEN --plugin-path PLUGINS arguments...` with
    /// `environment` added, in `namespace` (by `ip netns exec`; nil: the test's own), and waits
    /// up to `within` for it to listen. Without a cache folder named by the test, the server
    /// caches in a fresh folder of its own (``ownCacheFolder``).
    /// - Parameter listen: `HOST:0` (the server picks the port); default `127.0.0.1:0`.
    /// - Throws: ``HarnessError`` with its standard error when it exits or does not listen in time.
    public init(
        _ arguments: [String], environment: [String: String] = [:], plugins: PluginsFolder? = nil,
        in namespace: NetworkNamespace? = nil, listen: String = "127.0.0.1:0", within: Duration = .seconds(60)
    ) throws {
        expectOwnThreadWhenBlocking("starting webimage serve")
        let folder =
            try plugins
            ?? {
                let folder = try PluginsFolder()
                try folder.addAllBundled()
                return folder
            }()
        self.plugins = folder
        self.namespace = namespace
        let process = Process()
        // `ip netns exec` enters the namespace and replaces itself with the server.
        let command =
            (namespace?.execPrefix ?? []) + [try BuildProducts.executable.path]
            + ["serve", "--listen", listen, "--plugin-path", folder.path] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = environment
        let namesCacheFolder =
            arguments.contains { $0 == "--cache-dir" || $0.hasPrefix("--cache-dir=") }
            || environment["WEBIMAGE_CACHE_DIR"] != nil || environment["XDG_CACHE_HOME"] != nil
        ownCacheFolder = namesCacheFolder ? nil : try TemporaryDirectory()
        if let ownCacheFolder { environment["WEBIMAGE_CACHE_DIR"] = ownCacheFolder.path }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        self.process = process
        try process.run()
        let output = self.output
        standardOutput.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.text.withLock { $0.standardOutput += text }
        }
        standardError.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.text.withLock { $0.standardError += text }
        }
        let deadline = ContinuousClock.now + within
        var found: (host: String, port: Int)?
        while found == nil && ContinuousClock.now < deadline && process.isRunning {
            found = Self.listeningAddress(in: output.text.withLock { $0.standardOutput })
            if found == nil { usleep(20_000) }
        }
        guard let (host, port) = found ?? Self.listeningAddress(in: output.text.withLock { $0.standardOutput }) else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw HarnessError(
                "webimage serve did not listen: \(output.text.withLock { $0.standardError + $0.standardOutput })")
        }
        self.port = port
        baseURL = "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)"
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// What the server printed on standard output so far (the `listening on` line, then one
    /// access line per request).
    public var standardOutput: String { output.text.withLock { $0.standardOutput } }
    public var standardError: String { output.text.withLock { $0.standardError } }

    /// The access lines so far.
    public var accessLines: [String] {
        standardOutput.split(separator: "\n").map(String.init).filter {
            $0.contains("webimage.serve:") && $0.contains("ms ")
        }
    }

    /// The access lines once at least `count` of them satisfy `isWanted`, waiting up to
    /// `within` for them (the server writes its log out every 10 ms); the lines so far when
    /// the time runs out.
    public func accessLines(
        waitingFor count: Int, where isWanted: (String) -> Bool = { _ in true }, within: Duration = .seconds(10)
    ) -> [String] {
        let deadline = ContinuousClock.now + within
        var lines = accessLines
        while lines.filter(isWanted).count < count && ContinuousClock.now < deadline {
            usleep(10_000)
            lines = accessLines
        }
        return lines
    }

    /// Sends `signal` (SIGTERM by default) and waits up to `within` for the exit.
    /// - Returns: the exit status, or nil when it did not exit in time (it is then killed).
    public func stop(signal: Int32 = SIGTERM, within: Duration = .seconds(30)) -> Int32? {
        expectOwnThreadWhenBlocking("stopping webimage serve")
        kill(process.processIdentifier, signal)
        let deadline = ContinuousClock.now + within
        while process.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    public var isRunning: Bool { process.isRunning }

    /// The host and port of the `listening on http://HOST:PORT` line in `text`, once complete.
    private static func listeningAddress(in text: String) -> (host: String, port: Int)? {
        guard let range = text.range(of: "listening on http://") else { return nil }
        let rest = text[range.upperBound...]
        guard let end = rest.firstIndex(of: "\n"), let colon = rest[..<end].lastIndex(of: ":"),
            let port = Int(rest[rest.index(after: colon)..<end])
        else { return nil }
        return (String(rest[..<colon]), port)
    }
}

/// One HTTP exchange made with curl (a real client): status, headers and body.
public struct HTTPExchange: Sendable {
    public let status: Int
    /// Header names lowercased; the last value of a repeated header.
    public let headers: [String: String]
    public let body: [UInt8]

    /// `method url` with `headers`, by curl (no proxy) run in `namespace` (nil: the test's
    /// own), within `within`.
    /// - Throws: ``HarnessError`` when curl fails to connect or its output has no HTTP head.
    public static func send(
        _ url: String, method: String = "GET", headers: [String: String] = [:], in namespace: NetworkNamespace? = nil,
        within: Duration = .seconds(120)
    ) throws -> HTTPExchange {
        var arguments = ["-s", "-i", "--max-time", String(within.components.seconds), "--path-as-is", "--noproxy", "*"]
        arguments += method == "HEAD" ? ["-I"] : ["-X", method]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        arguments.append(url)
        let command = (namespace?.execPrefix ?? []) + ["/usr/bin/curl"] + arguments
        let bytes = try ChildProcess.output(of: command[0], Array(command.dropFirst()))
        return try parse(bytes)
    }

    /// An exchange from curl's `-i` output: the head, a blank line, the body.
    static func parse(_ bytes: [UInt8]) throws -> HTTPExchange {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else {
            throw HarnessError("no HTTP head in curl's output")
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = head.first, statusLine.split(separator: " ").count >= 2,
            let status = Int(statusLine.split(separator: " ")[1])
        else { throw HarnessError("bad status line in curl's output") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return HTTPExchange(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
    }

    /// The body as text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// What a child printed so far, shared with the pipes' reading handlers.
private final class OutputBuffer: Sendable {
    let text = TrackedMutex<(standardOutput: String, standardError: String)>(("", ""))
}
