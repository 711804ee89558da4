import ArgumentParser
import Dispatch
import FoundationEssentials
import WebImageCore

/// What `webimage get` and `webimage prefetch` share: the plugins, the cache folder, the
/// thumbnail, the transformers, the disk tier's backend and the loader's options.
package struct ManagerOptions: ParsableArguments {
    package init() {}

    @OptionGroup package var pluginOptions: PluginOptions

    @OptionGroup package var destinationOptions: DestinationOptions

    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp(
            "The disk cache folder; default $WEBIMAGE_CACHE_DIR, else the XDG cache folder.", valueName: "dir"))
    package var cacheDirectory: String?

    @Option(help: ArgumentHelp("Decode to a thumbnail that fits WxH pixels.", valueName: "WxH"))
    package var thumbnail: String?

    @Flag(name: .customLong("no-aspect"), help: "With --thumbnail: exactly WxH, not keeping the aspect ratio.")
    package var noAspect = false

    @Option(
        name: .customLong("transform"),
        help: ArgumentHelp(
            "A transformer after decoding (repeatable, applied in order): "
                + TransformArgument.builtInNames.joined(separator: ", ") + ", or a plugin's NAME[:k=v,...].",
            valueName: "spec"))
    package var transforms: [String] = []

    @OptionGroup package var loaderOptions: LoaderOptions

    @Option(
        name: .customLong("cache-backend"),
        help: ArgumentHelp("The disk tier's backend plugin: disk or redis.", valueName: "name"))
    package var cacheBackend = "disk"

    @Option(
        name: .customLong("cache-option"),
        help: ArgumentHelp(
            "A backend option as key=value, passed to the plugin (repeatable): url=redis://HOST:PORT, for example.",
            valueName: "key=value"))
    package var cacheOptions: [String] = []

    /// The image cache's configuration: the disk tier's backend (`--cache-backend`) with its
    /// options (`--cache-option`), in `--cache-dir` for the disk backend.
    package func cacheConfiguration() throws(CLIError) -> ImageCacheConfiguration {
        try CacheBackendArgument.check(cacheBackend, flag: "--cache-backend")
        guard cacheDirectory == nil || cacheBackend == "disk" else {
            throw CLIError("--cache-dir applies to the disk backend only")
        }
        var configuration = ImageCacheConfiguration()
        configuration.directory = cacheDirectory
        configuration.diskPlugin = cacheBackend
        configuration.extraDiskOptions = try CacheBackendArgument.options(cacheOptions, flag: "--cache-option")
        return configuration
    }

    /// The manager over the plugins of the search path: the memory cache, the disk tier
    /// (``cacheConfiguration()``), the coders and the loaders (reporting their bytes to `bar`
    /// when there is one).
    package func makeManager(host: PluginHost, bar: TransferProgressBar? = nil) throws -> ImageManager {
        let configuration = try cacheConfiguration()
        do {
            var downloaderConfiguration = ImageDownloaderConfiguration()
            loaderOptions.apply(to: &downloaderConfiguration)
            downloaderConfiguration.destinationPolicy = destinationOptions.policy
            let manager = try ImageManager(
                host: host, cacheConfiguration: configuration, downloaderConfiguration: downloaderConfiguration)
            guard bar != nil else { return manager }
            let downloader = ImageDownloader(
                loaders: MeteredLoader.wrap(manager.downloader.loaders, reportingTo: bar),
                configuration: manager.downloader.configuration)
            return ImageManager(cache: manager.cache, downloader: downloader, coders: manager.coders)
        } catch let fault as PluginFault {
            throw CLIError("cannot set up the image manager: \(fault)")
        } catch let error as CacheError {
            throw CLIError("cannot open the cache: \(error.message)")
        }
    }

    /// The context the thumbnail and transform options ask for.
    package func context(host: PluginHost) throws -> ImageContext {
        var context = ImageContext()
        if let thumbnail {
            context.thumbnail = try ThumbnailArgument.parse(thumbnail, preservesAspectRatio: !noAspect)
        } else if noAspect {
            throw CLIError("--no-aspect needs --thumbnail")
        }
        if !transforms.isEmpty {
            let pipeline = try TransformArgument.pipeline(transforms, host: host)
            context.transformer = pipeline.transformers.count == 1 ? pipeline.transformers[0] : pipeline
        }
        return context
    }
}

/// A cache type named on the command line: `none`, `memory`, `disk` or `all`.
package enum CacheTypeArgument {
    package static func parse(_ text: String, option: String) throws -> ImageCacheType {
        switch text {
        case "none": return .none
        case "memory": return .memory
        case "disk": return .disk
        case "all": return .all
        default: throw CLIError("invalid \(option) '\(text)': expected none, memory, disk or all")
        }
    }

    package static func name(_ type: ImageCacheType) -> String {
        switch type {
        case .none: "none"
        case .memory: "memory"
        case .disk: "disk"
        case .all: "all"
        }
    }
}

/// Runs an async body to its end from a synchronous command.
package func runBlocking<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
    let semaphore = DispatchSemaphore(value: 0)
    let box = ResultBox<Value>()
    Task {
        box.value = await body()
        semaphore.signal()
    }
    semaphore.wait()
    return box.value!
}

/// Carries a value out of a task to a thread waiting on a semaphore.
package final class ResultBox<Value>: @unchecked Sendable {
    // @unchecked: written once by the task before the semaphore is signalled, read after the wait.
    package var value: Value?
}
