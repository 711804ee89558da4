import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A `webimage serve` started by a test on 127.0.0.1 with a port of its own choosing, over a
/// plugins folder with every bundled plugin: its address once it prints `listening on`,
/// its standard output (the access log) and error, and a stop by signal.
public final class ImageServerProcess: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let baseURL: String
    public let port: Int
    /// The plugins folder the server uses (every bundled plugin).
    public let plugins: PluginsFolder
    private let process: Process
    private let output = OutputBuffer()

    /// Starts `webimage serve --listen 127.0.0.1:0 --plugin-path PLUGINS arguments...` with
    /// `environment` added, and waits up to `within` for it to listen.
    /// - Throws: ``HarnessError`` with its standard error when it exits or does not listen in time.
    public init(
        _ arguments: [String], environment: [String: String] = [:], plugins: PluginsFolder? = nil,
        within: Duration = .seconds(60)
    ) throws {
        let folder =
            try plugins
            ?? {
                let folder = try PluginsFolder()
                try folder.addAllBundled()
                return folder
            }()
        self.plugins = folder
        let process = Process()
        process.executableURL = try BuildProducts.executable
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--plugin-path", folder.path] + arguments
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
        var found: Int?
        while found == nil && ContinuousClock.now < deadline && process.isRunning {
            found = Self.listeningPort(in: output.text.withLock { $0.standardOutput })
            if found == nil { usleep(20_000) }
        }
        guard let port = found ?? Self.listeningPort(in: output.text.withLock { $0.standardOutput }) else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw HarnessError(
                "webimage serve did not listen: \(output.text.withLock { $0.standardError + $0.standardOutput })")
        }
        self.port = port
        baseURL = "http://127.0.0.1:\(port)"
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

    /// Sends `signal` (SIGTERM by default) and waits up to `within` for the exit.
    /// - Returns: the exit status, or nil when it did not exit in time (it is then killed).
    public func stop(signal: Int32 = SIGTERM, within: Duration = .seconds(30)) -> Int32? {
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

    private static func listeningPort(in text: String) -> Int? {
        guard let range = text.range(of: "listening on http://127.0.0.1:") else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber }
        guard text[range.upperBound...].dropFirst(digits.count).first == "\n" else { return nil }
        return Int(digits)
    }
}

/// One HTTP exchange made with curl (a real client): status, headers and body.
public struct HTTPExchange: Sendable {
    public let status: Int
    /// Header names lowercased; the last value of a repeated header.
    public let headers: [String: String]
    public let body: [UInt8]

    /// `method url` with `headers`, by curl, within `within`.
    /// - Throws: ``HarnessError`` when curl fails to connect or its output has no HTTP head.
    public static func send(
        _ url: String, method: String = "GET", headers: [String: String] = [:], within: Duration = .seconds(120)
    ) throws -> HTTPExchange {
        var arguments = ["-s", "-i", "--max-time", String(within.components.seconds), "--path-as-is"]
        arguments += method == "HEAD" ? ["-I"] : ["-X", method]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        arguments.append(url)
        let bytes = try ChildProcess.output(of: "/usr/bin/curl", arguments)
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
    let text = Mutex<(standardOutput: String, standardError: String)>(("", ""))
}
