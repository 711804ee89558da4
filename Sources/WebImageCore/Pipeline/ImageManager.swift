import Dispatch
import FoundationEssentials

/// Loads images: from the memory cache, the disk cache or a loader, decoded (to a thumbnail
/// when asked), transformed, stored for next time, as SDWebImage's `SDWebImageManager` with
/// Nuke's coalescing: identical downloads, decodes and transforms run once, a transform chain
/// `[a, b, c]` reuses `[a, b]`, work stops when its last request leaves and follows the
/// highest priority of its requests.
///
/// Two APIs over one engine: ``image(for:options:context:)`` (async, honours task
/// cancellation), ``images(for:options:context:)`` (progress and partial images), and
/// ``load(_:options:context:progress:completed:)`` returning an ``ImageOperation``.
public final class ImageManager: Sendable {
    /// The cache queried and stored to; nil: none.
    public let cache: (any ImageCaching)?
    /// The identity of ``cache`` in the requests' keys, taken once.
    let cacheIdentity: InstanceIdentity?
    /// The loader.
    public let downloader: ImageDownloader
    public let coders: CodersManager
    /// Applied to every request without a context transformer; default none.
    public let defaultTransformer: (any ImageTransformer)?
    /// Default none (the URL's absolute string is the key).
    public let cacheKeyFilter: (any CacheKeyFilter)?
    /// Default none (the downloaded bytes are stored).
    public let cacheSerializer: (any CacheSerializer)?
    /// Rewrites options and context per URL; default none.
    public let optionsProcessor: (any ImageOptionsProcessor)?
    public let configuration: ImageManagerConfiguration
    /// URLs refused until ``ImageManagerOptions/retryFailed`` or a success.
    public let failedURLs = FailedURLList()
    /// Work performed, for tests and benchmarks.
    public let counters = PipelineCounters()

    let downloads = WorkRegistry<ImageRequestKeys.Download, DownloadedData>()
    let decodes = WorkRegistry<ImageRequestKeys.Decode, DecodedPayload>()
    let transforms = WorkRegistry<ImageRequestKeys.Transform, DecodedPayload>()
    let images = WorkRegistry<ImageRequestKeys.Image, ImageResult>()
    let decodeQueue: WorkQueue
    /// Bounds the downloads not yet decoding (``ImageManagerConfiguration/maxDownloadsAwaitingDecode``);
    /// nil without a bound.
    let downloadAdmission: DownloadAdmission?
    let transformQueue: WorkQueue
    let background = BackgroundWork()
    private let operations = TrackedMutex<[ObjectIdentifier: ImageOperation]>([:])

    public init(
        cache: (any ImageCaching)?, downloader: ImageDownloader, coders: CodersManager,
        defaultTransformer: (any ImageTransformer)? = nil, cacheKeyFilter: (any CacheKeyFilter)? = nil,
        cacheSerializer: (any CacheSerializer)? = nil, optionsProcessor: (any ImageOptionsProcessor)? = nil,
        configuration: ImageManagerConfiguration = ImageManagerConfiguration()
    ) {
        self.cache = cache
        cacheIdentity = cache.map(InstanceIdentity.init)
        self.downloader = downloader
        self.coders = coders
        self.defaultTransformer = defaultTransformer
        self.cacheKeyFilter = cacheKeyFilter
        self.cacheSerializer = cacheSerializer
        self.optionsProcessor = optionsProcessor
        self.configuration = configuration
        decodeQueue = WorkQueue(label: "webimage.manager.decode", width: configuration.maxConcurrentDecodes)
        downloadAdmission = configuration.maxDownloadsAwaitingDecode.map {
            DownloadAdmission(capacity: $0, lastInFirstOut: downloader.configuration.executionOrder == .lifo)
        }
        transformQueue = WorkQueue(label: "webimage.manager.transform", width: configuration.maxConcurrentTransforms)
    }

    /// A manager over the bundled plugins of `host`: the `memory` and `disk` caches (as the
    /// cache configuration names them), every coder plugin and the `curl` loader (every loader
    /// plugin, `curl` first).
    /// - Parameters:
    ///   - cacheConfiguration: default nil: `configuration.cache`.
    ///   - downloaderConfiguration: default nil: `configuration.downloader`.
    ///   - configuration: default ``ImageManagerConfiguration/init()``; its `pluginsDirectory`
    ///     is not used (`host` has its plugins).
    /// - Throws: ``PluginFault`` when a plugin cannot be opened, ``CacheError`` when a cache refuses its options.
    public convenience init(
        host: PluginHost, cacheConfiguration: ImageCacheConfiguration? = nil,
        downloaderConfiguration: ImageDownloaderConfiguration? = nil,
        defaultTransformer: (any ImageTransformer)? = nil, configuration: ImageManagerConfiguration = .init()
    ) throws {
        var configuration = configuration
        configuration.cache = cacheConfiguration ?? configuration.cache
        configuration.downloader = downloaderConfiguration ?? configuration.downloader
        let coders = host.makeCodersManager()
        let cache = try ImageCache(host: host, coders: coders, configuration: configuration.cache)
        let names = host.plugins(of: .loader).map(\.name).sorted { ($0 == "curl" ? 0 : 1) < ($1 == "curl" ? 0 : 1) }
        let loaders: [any ImageLoader] = try names.map { try host.adapter(PluginLoader.self, named: $0) }
        self.init(
            cache: cache, downloader: ImageDownloader(loaders: loaders, configuration: configuration.downloader),
            coders: coders, defaultTransformer: defaultTransformer, configuration: configuration)
    }

    /// A manager over the plugins an app finds with no host of its own: `configuration.pluginsDirectory`,
    /// the plugins SwiftPM built with the app, `WEBIMAGE_PLUGIN_PATH` and the install folder
    /// (``PluginSearchPath/application(pluginsDirectory:environment:executablePath:)``), with the
    /// caches and downloader of `configuration`.
    /// - Parameter configuration: default ``ImageManagerConfiguration/init()``.
    /// - Throws: what ``init(host:cacheConfiguration:downloaderConfiguration:defaultTransformer:configuration:)`` throws.
    public convenience init(configuration: ImageManagerConfiguration = .init()) throws {
        let host = PluginHost(searchPath: .application(pluginsDirectory: configuration.pluginsDirectory))
        try self.init(host: host, configuration: configuration)
    }

    /// The configuration ``shared`` is made with, and the manager once made.
    private static let sharedState = TrackedMutex<(configuration: ImageManagerConfiguration, manager: ImageManager?)>(
        (ImageManagerConfiguration(), nil))

    /// The shared manager, as Nuke's `ImagePipeline.shared`: ``init(configuration:)`` with the
    /// configuration of ``configureShared(_:)`` (default ``ImageManagerConfiguration/init()``),
    /// made on first use: `try await ImageManager.shared.image(for: url)`.
    /// - Throws: what ``init(configuration:)`` throws (then the next use tries again).
    public static var shared: ImageManager {
        get throws {
            try sharedState.withLock { state in
                if let manager = state.manager { return manager }
                let manager = try ImageManager(configuration: state.configuration)
                state.manager = manager
                return manager
            }
        }
    }

    /// Sets the configuration ``shared`` is made with; call it before the first use of ``shared``.
    /// - Throws: ``ImageManagerError`` `.invalidOption` once ``shared`` has been made (it keeps
    ///   its configuration).
    public static func configureShared(_ configuration: ImageManagerConfiguration) throws(ImageManagerError) {
        let made = sharedState.withLock { state in
            if state.manager == nil { state.configuration = configuration }
            return state.manager != nil
        }
        if made {
            throw ImageManagerError(
                .invalidOption, "the shared manager is already in use; configure it before its first use")
        }
    }

    // MARK: requests

    /// Loads the image of `url`, SDWebImage's way. `completed` runs once (twice with
    /// ``ImageManagerOptions/refreshCached`` when the server has a new image), never on the
    /// caller's thread unless a `query…Sync` option answers from the cache; `progress` gets
    /// download progress and partial images.
    @discardableResult
    public func load(
        _ url: URL?, options: ImageManagerOptions = [], context: ImageContext = ImageContext(),
        progress: (@Sendable (ImageEvent) -> Void)? = nil,
        completed: @escaping @Sendable (Result<ImageResult, ImageManagerError>) -> Void
    ) -> ImageOperation {
        start(url, options: options, context: context, progress: progress, completed: completed, ended: nil)
    }

    /// ``load(_:options:context:progress:completed:)`` for a URL string; an empty or
    /// unparseable one completes with ``ImageManagerError/Kind/invalidURL``.
    @discardableResult
    public func load(
        _ url: String?, options: ImageManagerOptions = [], context: ImageContext = ImageContext(),
        progress: (@Sendable (ImageEvent) -> Void)? = nil,
        completed: @escaping @Sendable (Result<ImageResult, ImageManagerError>) -> Void
    ) -> ImageOperation {
        load(
            url.flatMap(URL.init(string:)), options: options, context: context, progress: progress, completed: completed
        )
    }

    /// The image of `url`: the first completion (the cached image with
    /// ``ImageManagerOptions/refreshCached``; the revalidation goes on in the background).
    /// - Throws: ``ImageManagerError``; `.cancelled` when the calling task is cancelled.
    public func image(
        for url: URL?, options: ImageManagerOptions = [], context: ImageContext = ImageContext()
    ) async throws(ImageManagerError) -> ImageResult {
        if let url, Self.isValid(url) {
            let (options, context) = processed(url, options, context)
            let plan = ImageRequestPlan(url: url, options: options, context: context, manager: self)
            if let hit = memoryHitNow(plan) { return hit }
        }
        let holder = TrackedMutex<(operation: ImageOperation?, cancelled: Bool)>((nil, false))
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<ImageResult, ImageManagerError>, Never>) in
                let once = TrackedMutex<CheckedContinuation<Result<ImageResult, ImageManagerError>, Never>?>(
                    continuation)
                let operation = load(url, options: options, context: context) { result in
                    once.withLock { $0.take() }?.resume(returning: result)
                }
                let cancelled = holder.withLock { holder -> Bool in
                    holder.operation = operation
                    return holder.cancelled
                }
                if cancelled { operation.cancel() }
            }
        } onCancel: {
            holder.withLock { holder -> ImageOperation? in
                holder.cancelled = true
                return holder.operation
            }?.cancel()
        }
        return try result.get()
    }

    /// ``image(for:options:context:)`` for a URL string.
    public func image(
        for url: String?, options: ImageManagerOptions = [], context: ImageContext = ImageContext()
    ) async throws(ImageManagerError) -> ImageResult {
        try await image(for: url.flatMap(URL.init(string:)), options: options, context: context)
    }

    /// The request's events: progress and partial images, then each completion; the sequence
    /// ends after the last completion (after a revalidation with ``ImageManagerOptions/refreshCached``)
    /// and throws the ``ImageManagerError``. Ending the iteration cancels the request.
    public func images(
        for url: URL?, options: ImageManagerOptions = [], context: ImageContext = ImageContext()
    ) -> AsyncThrowingStream<ImageEvent, any Error> {
        AsyncThrowingStream { continuation in
            let operation = start(
                url, options: options, context: context, progress: { continuation.yield($0) },
                completed: { result in
                    switch result {
                    case .success(let image): continuation.yield(.completed(image))
                    case .failure(let error): continuation.finish(throwing: error)
                    }
                }, ended: { continuation.finish() })
            continuation.onTermination = { _ in operation.cancel() }
        }
    }

    /// Cancels every running request (each completes with `.cancelled`).
    public func cancelAll() {
        for operation in operations.withLock({ Array($0.values) }) { operation.cancel() }
    }

    /// True while a request, a store or a revalidation runs.
    public var isRunning: Bool { images.runningCount > 0 || !background.isIdle }

    /// Returns once every request, store and revalidation started so far has finished.
    public func waitUntilIdle() async {
        await background.waitUntilIdle()
    }

    /// The cache key the final image of `url` is stored under with `context` (thumbnail and
    /// transformer keys included); nil when the cache key filter gives none.
    public func cacheKey(for url: URL, options: ImageManagerOptions = [], context: ImageContext = ImageContext())
        -> String?
    {
        let (options, context) = processed(url, options, context)
        return ImageRequestPlan(url: url, options: options, context: context, manager: self).finalKey
    }

    // MARK: engine

    private static func isValid(_ url: URL) -> Bool {
        !url.absoluteString.isEmpty && url.scheme != nil
    }

    private func processed(_ url: URL, _ options: ImageManagerOptions, _ context: ImageContext)
        -> (ImageManagerOptions, ImageContext)
    {
        guard let optionsProcessor else { return (options, context) }
        return optionsProcessor.process(url: url, options: options, context: context)
    }

    private func start(
        _ url: URL?, options: ImageManagerOptions, context: ImageContext, progress: (@Sendable (ImageEvent) -> Void)?,
        completed: @escaping @Sendable (Result<ImageResult, ImageManagerError>) -> Void, ended: (@Sendable () -> Void)?
    ) -> ImageOperation {
        let operation = ImageOperation(
            url: url, priority: options.priority, progress: progress, completed: completed, ended: ended
        ) { [weak self] operation in
            _ = self?.operations.withLock { $0.removeValue(forKey: ObjectIdentifier(operation)) }
        }
        guard let url, Self.isValid(url) else {
            let error = ImageManagerError(
                .invalidURL, url == nil ? "not a URL" : "not a URL (no scheme)", url: url?.absoluteString)
            DispatchQueue.global().async {
                operation.end(with: .failure(error), cancelling: false)
            }
            return operation
        }
        let (options, context) = processed(url, options, context)
        let plan = ImageRequestPlan(url: url, options: options, context: context, manager: self)
        if options.contains(.queryMemoryDataSync) || options.contains(.queryDiskDataSync) {
            if let hit = memoryHitNow(plan) ?? (options.contains(.queryDiskDataSync) ? diskHitNow(plan) : nil) {
                operation.end(with: .success(hit), cancelling: false)
                return operation
            }
        } else if let hit = memoryHitNow(plan) {
            DispatchQueue.global().async { operation.end(with: .success(hit), cancelling: false) }
            return operation
        }
        operations.withLock { $0[ObjectIdentifier(operation)] = operation }
        if let timeout = plan.timeout { operation.startTimeout(timeout) }
        let sharedFlag = TrackedMutex<SharedWork<ImageResult>?>(nil)
        let subscription = images.subscribe(
            key: plan.imageKey, priority: plan.priority,
            handler: { event in
                let shared = sharedFlag.withLock { $0 }?.isShared ?? false
                operation.receive(event, shared: shared)
            }, start: { work in start(plan, work: work) })
        sharedFlag.withLock { $0 = subscription.work }
        operation.attach(subscription)
        return operation
    }
}
