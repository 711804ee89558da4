import ArgumentParser
import WebImageCLISupport
import WebImageCore

/// Options every `webimage cache` subcommand takes: which backend and cache, and the output form.
struct CacheOptions: ParsableArguments {
    @OptionGroup var pluginOptions: PluginOptions

    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp(
            "The cache folder (disk); default $WEBIMAGE_CACHE_DIR, else the XDG cache folder.", valueName: "dir"))
    var cacheDirectory: String?

    @Option(help: ArgumentHelp("The cache namespace; default 'default'.", valueName: "ns"))
    var namespace: String?

    @Option(help: ArgumentHelp("The backend plugin: disk or redis; default disk.", valueName: "name"))
    var backend = "disk"

    @Option(
        name: .customLong("option"),
        help: ArgumentHelp("A backend option as key=value, passed to the plugin (repeatable).", valueName: "key=value"))
    var options: [String] = []

    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// The configuration the plugin is opened with.
    func configuration() throws(CLIError) -> CacheConfiguration {
        var configuration = CacheConfiguration()
        if let cacheDirectory {
            guard backend == "disk" else { throw CLIError("--cache-dir applies to the disk backend only") }
            configuration["directory"] = cacheDirectory
        }
        if let namespace { configuration["namespace"] = namespace }
        configuration.entries += try CacheBackendArgument.options(options, flag: "--option").entries
        return configuration
    }

    /// Opens the cache.
    /// - Throws: ``CLIError`` for a backend that is not a disk cache plugin, an unknown option or a bad value.
    func open() throws -> PluginDiskCache {
        try CacheBackendArgument.check(backend, flag: "--backend")
        let host = pluginOptions.makeHost()
        let plugin = try host.adapter(PluginDiskCacheBackend.self, named: backend)
        do {
            return try plugin.open(try configuration())
        } catch let error as CacheError {
            throw CLIError("\(backend) cache: \(error.message)")
        }
    }
}

/// A `webimage cache` subcommand: ``CommandMain`` reads its `--verbose` through ``pluginOptions``.
protocol CacheSubcommand: PluginHostCommand {
    var cache: CacheOptions { get }
}

extension CacheSubcommand {
    var pluginOptions: PluginOptions { cache.pluginOptions }
}

/// Runs a cache operation and turns a ``CacheError`` into a one-line ``CLIError``.
func cacheCall<Value>(_ what: String, _ body: () throws(CacheError) -> Value) throws(CLIError) -> Value {
    do {
        return try body()
    } catch {
        throw CLIError("\(what): \(error.message)")
    }
}
