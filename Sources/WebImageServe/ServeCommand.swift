import ArgumentParser
import FoundationEssentials
import Logging
import WebImageCLISupport
import WebImageCore
import WebImageServer

/// `webimage serve`: the image server (imgproxy's URLs) on the plugins of the search path.
/// Settings come from `--config FILE`, then `WEBIMAGE_SERVE_*` variables, then flags; each
/// setting's meaning and default is in ``ImageServerConfiguration``.
struct ServeCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: ServerCommandSummary.serve,
        discussion: """
            Every setting is also a key of the JSON file of --config and a variable \
            WEBIMAGE_SERVE_<NAME> (upper case, '_' for '-'; lists comma-separated); flags win \
            over variables, variables over the file. Starting without a signing key is refused \
            unless --allow-unsigned is given. Prints 'listening on http://HOST:PORT' once it \
            serves, one access line per request on standard output, and exits 0 after SIGTERM \
            or SIGINT once the requests in flight are answered. See docs/serving.md.
            """)

    @Option(help: ArgumentHelp("A JSON file of settings (keys are the flag names without --).", valueName: "file"))
    var config: String?

    @Option(
        help: ArgumentHelp(
            "Address and port to listen on; port 0 picks one (default 127.0.0.1:8080).", valueName: "host:port"))
    var listen: String?

    @Option(
        help: ArgumentHelp("A signing key in hexadecimal (repeatable, paired in order with --salt).", valueName: "hex"))
    var key: [String] = []

    @Option(help: ArgumentHelp("A salt in hexadecimal (repeatable, one for each --key).", valueName: "hex"))
    var salt: [String] = []

    @Flag(help: "Accept URLs without a valid signature (any signature segment, such as 'insecure').")
    var allowUnsigned = false

    @Option(
        help: ArgumentHelp(
            "Only serve sources under this URL prefix, also after redirects; '*' stands for host labels (repeatable; default: any http or https URL).",
            valueName: "prefix"))
    var allowSource: [String] = []

    @Flag(help: "Allow sources on loopback, private, link-local and other special addresses (refused by default).")
    var allowPrivateSources = false

    @Option(
        help: ArgumentHelp(
            "Folder of the disk caches of originals and results (default: the disk plugin's).", valueName: "dir"))
    var cacheDir: String?

    @Option(help: ArgumentHelp("Keep results in Redis at this URL instead of on disk.", valueName: "url"))
    var redisURL: String?

    @Flag(help: "Keep the originals in that Redis too, so a fleet fetches each source once (default: on disk).")
    var redisOriginals = false

    @Option(
        help: ArgumentHelp(
            "Seconds a Redis command may take before the server goes on without Redis (default 0.05).",
            valueName: "seconds"))
    var redisTimeout: Double?

    @Option(help: ArgumentHelp("Most images processed at once (default: the number of cores).", valueName: "n"))
    var maxConcurrent: Int?

    @Option(
        help: ArgumentHelp(
            "Most requests waiting for a place; beyond, 503 with Retry-After (default 256).", valueName: "n"))
    var maxQueue: Int?

    @Option(
        help: ArgumentHelp("Seconds a request may take before it is answered 504 (default 30).", valueName: "seconds"))
    var requestTimeout: Double?

    @Option(help: ArgumentHelp("Largest source accepted, in bytes (default 67108864, 64 MiB).", valueName: "bytes"))
    var maxSourceBytes: UInt64?

    @Option(help: ArgumentHelp("Seconds a source's download may take (default 20).", valueName: "seconds"))
    var sourceTimeout: Double?

    @OptionGroup var decodeLimits: DecodeLimitOptions

    @Option(
        help: ArgumentHelp(
            "max-age of a result's Cache-Control, in seconds (default 31536000, a year).", valueName: "seconds"))
    var cacheControlMaxAge: Int?

    @Flag(help: "Refuse URLs with options other than presets.")
    var presetsOnly = false

    @Option(
        help: ArgumentHelp(
            "A preset NAME=OPTIONS, such as thumb=rs:fill:256:256/q:80; 'default' applies to every request (repeatable).",
            valueName: "name=options"))
    var preset: [String] = []

    @Flag(help: "Offer AVIF to clients whose Accept lists image/avif.")
    var enableAVIF = false

    @Option(
        help: ArgumentHelp("Bytes of encoded results kept in memory (default 268435456, 256 MiB).", valueName: "bytes"))
    var resultMemoryBytes: UInt64?

    @Option(
        help: ArgumentHelp("Seconds SIGTERM or SIGINT waits for requests in flight (default 10).", valueName: "seconds")
    )
    var drainTimeout: Double?

    @Option(
        help: ArgumentHelp(
            "Seconds an original is fresh when its origin gives no max-age or Expires (default 3600, an hour).",
            valueName: "seconds"))
    var sourceMaxAge: Double?

    @OptionGroup var pluginOptions: PluginOptions

    /// The flags given, as setting names and values; absent flags are left out.
    var givenSettings: [(String, [String])] {
        var settings: [(String, [String])] = []
        func add(_ name: String, _ value: (any CustomStringConvertible)?) {
            if let value { settings.append((name, [value.description])) }
        }
        func add(_ name: String, _ values: [String]) { if !values.isEmpty { settings.append((name, values)) } }
        func add(_ name: String, flag: Bool) { if flag { settings.append((name, ["true"])) } }
        add("listen", listen)
        add("key", key)
        add("salt", salt)
        add("allow-unsigned", flag: allowUnsigned)
        add("allow-source", allowSource)
        add("allow-private-sources", flag: allowPrivateSources)
        add("cache-dir", cacheDir)
        add("redis-url", redisURL)
        add("redis-originals", flag: redisOriginals)
        add("redis-timeout", redisTimeout)
        add("max-concurrent", maxConcurrent)
        add("max-queue", maxQueue)
        add("request-timeout", requestTimeout)
        add("max-source-bytes", maxSourceBytes)
        add("source-timeout", sourceTimeout)
        for (name, value) in decodeLimits.given { add(name, value) }
        add("cache-control-max-age", cacheControlMaxAge)
        add("presets-only", flag: presetsOnly)
        add("preset", preset)
        add("enable-avif", flag: enableAVIF)
        add("result-memory-bytes", resultMemoryBytes)
        add("drain-timeout", drainTimeout)
        add("source-max-age", sourceMaxAge)
        return settings
    }

    /// The configuration of the file, the environment and the flags, in that order.
    func serverConfiguration(environment: [String: String]) throws -> ImageServerConfiguration {
        do throws(ImageServerConfigurationError) {
            var configuration = ImageServerConfiguration()
            if let config {
                guard let data = FileManager.default.contents(atPath: config) else {
                    throw ImageServerConfigurationError("cannot read the configuration file '\(config)'")
                }
                configuration = try ImageServerSettings.applyingJSON(data, to: configuration, file: config)
            }
            configuration = try ImageServerSettings.applyingEnvironment(environment, to: configuration)
            for (name, values) in givenSettings {
                try ImageServerSettings.apply(name, values, to: &configuration, from: "--\(name)")
            }
            return configuration
        } catch {
            throw CLIError(error.message)
        }
    }

    func run() throws {
        let configuration = try serverConfiguration(environment: ProcessInfo.processInfo.environment)
        LargeBlockMemoryPolicy.holdMmapThreshold()
        LocalTimeZonePolicy.readOnce()
        // Log lines, access lines above all, are written out together every 10 ms.
        let logStream = BufferedLogStream.standardOutput
        defer { logStream.flush() }
        let logger = Logger(label: "webimage.serve") { label in
            var handler = StreamLogHandler(label: label, stream: logStream)
            handler.logLevel = .info
            return handler
        }
        let host = pluginOptions.makeHost()
        let service: ImageService
        do {
            service = try ImageService(configuration: configuration, host: host, logger: logger)
        } catch {
            throw CLIError(error.message)
        }
        let server = ImageServer(service: service, logger: logger)
        let failure = runBlocking { () -> String? in
            do {
                try await server.run { address in
                    logStream.flush()
                    var standardOutput = DescriptorOutputStream(descriptor: 1)
                    standardOutput.write("listening on http://\(address)\n")
                }
                return nil
            } catch {
                return "\(error)"
            }
        }
        if let failure { throw CLIError("cannot serve on \(configuration.listen): \(failure)") }
    }
}
