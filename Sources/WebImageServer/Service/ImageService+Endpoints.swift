import FoundationEssentials
import WebImageCore

extension ImageService {
    /// `GET /health`: 200 `ok` when the coders are there and the result cache takes a write;
    /// 200 `degraded: ...` when the result cache is Redis and Redis does not answer (the server
    /// goes on with its memory tier); 503 with the reason otherwise. The answer is checked (one probe entry written into the
    /// result cache) at most once every 5 seconds (``HealthCheckCache/interval``, from the end of a check) and reused
    /// in between.
    public func health() async -> ImageServiceResponse {
        await healthCache.answer { await self.checkHealth() }
    }

    /// The health check itself: the coders, and a probe write into the result cache.
    private func checkHealth() async -> ImageServiceResponse {
        guard !host.plugins(of: .coder).isEmpty else { return .error(503, "no coder plugin") }
        let probe = ServedImage(bytes: Array("health".utf8), contentType: "text/plain", lastModified: 0)
        var state = "ok"
        do {
            try await results.store(probe, forKey: "webimage-serve-health")
        } catch  where configuration.redisURL != nil && (error.kind == .ioError || error.kind == .timedOut) {
            state = "degraded: \(error)"
        } catch {
            return .error(503, "the result cache takes no write: \(error)")
        }
        let body = Array("\(state)\n".utf8)
        return ImageServiceResponse(
            status: 200, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")],
            body: body, contentLength: body.count, tier: nil)
    }

    /// `GET /metrics`: ``ServerMetrics/text()``.
    public func metricsResponse() -> ImageServiceResponse {
        let body = Array(metrics.text().utf8)
        return ImageServiceResponse(
            status: 200,
            headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")],
            body: body, contentLength: body.count, tier: nil)
    }
}
