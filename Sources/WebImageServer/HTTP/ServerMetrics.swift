internal import Prometheus
import WebImageCore

/// The server's Prometheus metrics, all named `webimage_serve_*`, in the text format of
/// `GET /metrics`: requests by status, a latency histogram, results by cache tier, origin
/// fetches, revalidations of stale originals by outcome, coalesced requests, bytes in and
/// out, the queue depth, overload refusals and failures of the result cache's disk or Redis tier.
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let duration: DurationHistogram
    let originFetches: Counter
    let coalescedRequests: Counter
    let bytesIn: Counter
    let bytesOut: Counter
    let overloadRefusals: Counter
    let resultCacheFailures: Counter
    let fleetWaits: Counter
    private let queueGauge: Gauge
    private let processingGauge: Gauge
    private let gateReader = TrackedMutex<(@Sendable () -> (queued: Int, processing: Int))?>(nil)
    /// The labelled counters, each made by the registry on its first use and reused after.
    private let requestsByStatus = TrackedMutex<[Int: Counter]>([:])
    private let resultsByTier = TrackedMutex<[ResultCache.Tier: Counter]>([:])

    init() {
        duration = registry.makeDurationHistogram(
            descriptor: Self.name("request_duration", "seconds", "Time from a request's arrival to its answer"),
            buckets: [
                .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
                .seconds(10),
            ])
        originFetches = registry.makeCounter(
            descriptor: Self.name("origin_fetches", "total", "Sources downloaded from their origin"))
        coalescedRequests = registry.makeCounter(
            descriptor: Self.name(
                "coalesced_requests", "total",
                "Requests answered by the processing of an identical request running at the same time"))
        bytesIn = registry.makeCounter(
            descriptor: Self.name("source_bytes", "total", "Bytes downloaded from origins"))
        bytesOut = registry.makeCounter(
            descriptor: Self.name("response_bytes", "total", "Image bytes answered"))
        overloadRefusals = registry.makeCounter(
            descriptor: Self.name(
                "overload_refusals", "total", "Requests answered 503 because the queue was full"))
        resultCacheFailures = registry.makeCounter(
            descriptor: Self.name(
                "result_cache_failures", "total",
                "Reads (served as misses) and writes (dropped) of the result cache's disk or Redis tier that failed"))
        fleetWaits = registry.makeCounter(
            descriptor: Self.name(
                "fleet_waits", "total",
                "Misses answered with the result another instance made while this one waited behind its lease in Redis"
            ))
        queueGauge = registry.makeGauge(
            descriptor: Self.name("queue_depth", "", "Requests waiting for a place to be processed"))
        processingGauge = registry.makeGauge(
            descriptor: Self.name("processing", "", "Images being processed (sources fetched, decoded, encoded)"))
    }

    /// What reports the requests queued and the images being processed when the metrics are read.
    var gateState: (@Sendable () -> (queued: Int, processing: Int))? {
        get { gateReader.withLock { $0 } }
        set { gateReader.withLock { $0 = newValue } }
    }

    /// Counts one answer with `status` that took `duration`.
    func record(status: Int, duration elapsed: Duration) {
        requestsByStatus.withLock { counters in
            Self.reused(&counters, status) {
                registry.makeCounter(
                    descriptor: Self.name("requests", "total", "Answers by status"),
                    labels: [("status", String(status))])
            }
        }.increment()
        duration.record(elapsed)
    }

    /// Counts one image answered from `tier`.
    func countTier(_ tier: ResultCache.Tier) {
        resultsByTier.withLock { counters in
            Self.reused(&counters, tier) {
                registry.makeCounter(
                    descriptor: Self.name(
                        "results", "total", "Images answered by where the result came from (memory, disk, miss)"),
                    labels: [("tier", tier.rawValue)])
            }
        }.increment()
    }

    /// The counter of `counters` under `key`, made by `make` and kept there the first time.
    private static func reused<Key: Hashable>(_ counters: inout [Key: Counter], _ key: Key, make: () -> Counter)
        -> Counter
    {
        if let counter = counters[key] { return counter }
        let counter = make()
        counters[key] = counter
        return counter
    }

    /// Counts one stale original revalidated with its origin, by `outcome`: `not_modified` (a
    /// 304: the kept original was used) or `modified` (a new original was fetched and kept;
    /// also counted in `origin_fetches`).
    func countRevalidation(_ outcome: ImageMetrics.Revalidation) {
        registry.makeCounter(
            descriptor: Self.name(
                "origin_revalidations", "total", "Stale originals revalidated with their origin, by outcome"),
            labels: [("outcome", outcome == .notModified ? "not_modified" : "modified")]
        ).increment()
    }

    /// The descriptor of `webimage_serve_<name>_<unit>` (no `_<unit>` when `unit` is empty).
    private static func name(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "webimage", subsystem: "serve", metricName: name, unitName: unit, helpText: help)
    }

    /// The metrics in Prometheus's text format.
    public func text() -> String {
        let state = gateState?() ?? (queued: 0, processing: 0)
        queueGauge.set(Double(state.queued))
        processingGauge.set(Double(state.processing))
        return registry.emitToString()
    }
}
