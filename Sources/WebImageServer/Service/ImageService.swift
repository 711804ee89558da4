import FoundationEssentials
import Logging
import WebImageCore

/// The image server without its HTTP layer: from a request path in imgproxy's grammar to the
/// image answered, through the toolkit's public API only (the plugin host, an
/// ``WebImageCore/ImageManager``, the cache plugins, the transformers).
///
/// A request is checked in this order: method, signature (403), options and source (400),
/// the result caches (memory, then disk or Redis), then, on a miss, a place to process it
/// (503 when the queue is full), the source through the manager (its guard refuses private
/// addresses and unlisted prefixes: 403), the decode, the transformers and the encode. The
/// whole request is held to ``ImageServerConfiguration/requestTimeout`` (504). Identical
/// requests running at once share one source fetch, decode and encode.
public final class ImageService: Sendable {
    public let configuration: ImageServerConfiguration
    public let host: PluginHost
    /// The manager that fetches, caches (originals, on disk), decodes and transforms sources.
    public let manager: ImageManager
    public let metrics: ServerMetrics
    let signer: ImageURLSigner?
    let parser: ProcessingURLParser
    let results: ResultCache
    let admission: AdmissionGate
    let shared = SharedResults()
    let recentKeys = RecentResultKeys()
    let healthCache = HealthCheckCache()
    /// The `Cache-Control` of every image answered: `public, max-age=N`.
    let cacheControl: String
    let logger: Logger

    /// The free port chosen for a listen port of 0, held until the server listens there
    /// (``ImageServer/run(onListening:)`` releases it).
    let listenReservation: PortReservation

    /// A service over the plugins of `host`, set up by `configuration`; a listen port of 0 is
    /// replaced by a free port here (``configuration`` has it, ``listenReservation`` holds
    /// it), so the guard knows its own address.
    /// - Throws: ``ImageServerConfigurationError`` for a setting that cannot be used (no key
    ///   without `allow-unsigned`, an odd key, a bad preset) or a plugin or cache that cannot be opened.
    public init(configuration: ImageServerConfiguration, host: PluginHost, logger: Logger)
        throws(ImageServerConfigurationError)
    {
        var configuration = configuration
        listenReservation = try ListenAddress(configuration.listen).reservingPort()
        configuration.listen = listenReservation.address.text
        self.configuration = configuration
        cacheControl = "public, max-age=\(configuration.cacheControlMaxAge)"
        self.host = host
        self.logger = logger
        signer = try Self.makeSigner(configuration)
        if configuration.redisOriginals && configuration.redisURL == nil {
            throw ImageServerConfigurationError("redis-originals needs redis-url: give --redis-url URL")
        }
        do throws(ProcessingURLError) {
            parser = try ProcessingURLParser(
                presets: configuration.presets, presetsOnly: configuration.presetsOnly,
                pluginTransformers: host.transformerNames)
        } catch {
            throw ImageServerConfigurationError(error.message)
        }
        let metrics = ServerMetrics()
        self.metrics = metrics
        do {
            manager = try ImageManager(host: host, configuration: Self.managerConfiguration(configuration))
            results = try Self.makeResultCache(configuration, host: host) { _ in
                metrics.resultCacheFailures.increment()
            }
        } catch {
            throw ImageServerConfigurationError("cannot open the caches: \(error)")
        }
        admission = AdmissionGate(width: configuration.maxConcurrent, queueLimit: configuration.maxQueue)
        metrics.gateState = { [admission] in (admission.queueDepth, admission.runningCount) }
    }

    /// The answer to `request`.
    public func respond(to request: ImageServiceRequest) async -> ImageServiceResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .error(405, "method \(request.method) not allowed", headers: [("Allow", "GET, HEAD")])
        }
        let path = ImageServiceRequest.path(ofTarget: request.target)
        let started = ContinuousClock.now
        var response: ImageServiceResponse
        do {
            response = try await RequestDeadline.run(within: .seconds(configuration.requestTimeout)) {
                try await self.image(path: path, request: request, started: started)
            }
        } catch is AdmissionGate.Full {
            metrics.overloadRefusals.increment()
            response = .error(503, "too many requests waiting; try again", headers: [("Retry-After", "1")])
        } catch is RequestDeadline.Expired {
            response = .error(
                504, "the request took longer than \(String(printf: "%g", configuration.requestTimeout)) seconds")
        } catch let error as ServiceFailure {
            response = .error(error.status, error.message, headers: error.headers)
        } catch {
            response = .error(500, "\(error)")
        }
        if request.method == "HEAD" { response.body = [] }
        metrics.record(status: response.status, duration: ContinuousClock.now - started)
        return response
    }

    /// The answer to `request` when its result is in the memory tier, made without suspending,
    /// so the HTTP layer can answer such a hit on the connection's own thread; nil for anything
    /// else (another method, an error, a disk hit, a miss), which ``respond(to:)`` answers. The
    /// answer and the metrics are those ``respond(to:)`` gives for the same hit.
    public func respondFromMemory(to request: ImageServiceRequest) -> ImageServiceResponse? {
        guard request.method == "GET" || request.method == "HEAD" else { return nil }
        let started = ContinuousClock.now
        let path = ImageServiceRequest.path(ofTarget: request.target)
        let recent: RecentResultKeys.Entry
        if let kept = recentKeys.entry(path: path, accept: request.accept) {
            recent = kept
        } else if let resolved = try? resolve(path: path, accept: request.accept) {
            recent = RecentResultKeys.Entry(key: resolved.key, isNegotiated: resolved.target.isNegotiated)
        } else {
            return nil
        }
        guard let served = results.memoryValue(forKey: recent.key) else { return nil }
        var response = answer(
            served, tier: .memory, isNegotiated: recent.isNegotiated, request: request, started: started)
        if request.method == "HEAD" { response.body = [] }
        metrics.record(status: response.status, duration: ContinuousClock.now - started)
        return response
    }

    /// What a request path asks for, checked, before any cache is asked.
    struct ResolvedRequest {
        let processing: ProcessingRequest
        let plan: ImageProcessingPlan
        let target: OutputTarget
        /// The result's key: the source URL, the canonical options and the output format.
        let key: String
    }

    /// The request of `path` for a client that accepts `accept`: signature (403), options,
    /// source and output format (400).
    private func resolve(path: String, accept: String?) throws(ServiceFailure) -> ResolvedRequest {
        let processing = try parse(path)
        let plan: ImageProcessingPlan
        do {
            plan = try ImageProcessingPlan(processing, host: host)
        } catch {
            throw ServiceFailure(400, error.message)
        }
        let target = try OutputTarget(extension: plan.outputExtension, accept: accept, service: self)
        let key = processing.source.absoluteString + "\n" + processing.canonicalOptions + "\n" + target.keyPart
        recentKeys.keep(.init(key: key, isNegotiated: target.isNegotiated), path: path, accept: accept)
        return ResolvedRequest(processing: processing, plan: plan, target: target, key: key)
    }

    /// The image answer for `path`, or a ``ServiceFailure``.
    private func image(path: String, request: ImageServiceRequest, started: ContinuousClock.Instant) async throws
        -> ImageServiceResponse
    {
        let resolved = try resolve(path: path, accept: request.accept)
        let (processing, plan, target, key) = (resolved.processing, resolved.plan, resolved.target, resolved.key)
        let served: ServedImage
        let tier: ResultCache.Tier
        if let (hit, hitTier) = await results.lookup(key) {
            (served, tier) = (hit, hitTier)
        } else {
            let (made, joined) = try await shared.value(forKey: key) {
                try await self.makeOnce(processing, plan: plan, target: target, key: key)
            }
            if joined { metrics.coalescedRequests.increment() }
            (served, tier) = (made, .miss)
        }
        return answer(served, tier: tier, isNegotiated: target.isNegotiated, request: request, started: started)
    }

    /// The answer that serves `served`, found in `tier`: 200 with the image, or 304 when the
    /// client's `If-None-Match` holds its entity tag; counted in the metrics by tier and bytes.
    private func answer(
        _ served: ServedImage, tier: ResultCache.Tier, isNegotiated: Bool, request: ImageServiceRequest,
        started: ContinuousClock.Instant
    ) -> ImageServiceResponse {
        metrics.countTier(tier)
        var headers: [(name: String, value: String)] = [
            ("Content-Type", served.contentType), ("ETag", served.entityTag),
            ("Last-Modified", served.lastModifiedText), ("Cache-Control", cacheControl),
        ]
        if isNegotiated { headers.append(("Vary", "Accept")) }
        let total = (ContinuousClock.now - started).millisecondsText
        headers.append(("Server-Timing", "cache;desc=\(tier.rawValue), total;dur=\(total)"))
        if let tags = request.ifNoneMatch, EntityTags.match(tags, served.entityTag) {
            return ImageServiceResponse(
                status: 304, headers: headers.filter { $0.name != "Content-Type" }, body: [],
                contentLength: served.bytes.count, tier: tier.rawValue)
        }
        metrics.bytesOut.increment(by: Int64(served.bytes.count))
        return ImageServiceResponse(
            status: 200, headers: headers, body: served.bytes, contentLength: served.bytes.count, tier: tier.rawValue)
    }

    /// The processing request of `path`, its signature checked.
    private func parse(_ path: String) throws(ServiceFailure) -> ProcessingRequest {
        let processing: ProcessingRequest
        do {
            processing = try parser.parse(path: path)
        } catch {
            // A bad signature is told before a bad option, so an unsigned prober learns nothing.
            if let signer, !Self.signatureMatches(path, signer: signer) {
                throw ServiceFailure(403, "invalid signature")
            }
            throw ServiceFailure(400, error.message)
        }
        if let signer, !signer.verify(signature: processing.signature, path: processing.signedPath) {
            throw ServiceFailure(403, "invalid signature")
        }
        return processing
    }

    /// Whether the first segment of `path` signs the rest.
    private static func signatureMatches(_ path: String, signer: ImageURLSigner) -> Bool {
        let (signature, signedPath) = ProcessingURLParser.splitSignature(path)
        return !signedPath.isEmpty && signer.verify(signature: signature, path: signedPath)
    }
}

/// A request that fails with `status` and a one-line `message`.
struct ServiceFailure: Error {
    let status: Int
    let message: String
    var headers: [(name: String, value: String)] = []

    init(_ status: Int, _ message: String, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.message = message
        self.headers = headers
    }
}
