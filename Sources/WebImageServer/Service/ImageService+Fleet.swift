import Foundation
import WebImageCore

extension ImageService {
    /// How often an instance waiting behind another's lease looks for the result: every 50 ms.
    static let leasePollInterval = Duration.milliseconds(50)

    /// How long a lease on a result lasts: ``ImageServerConfiguration/sourceTimeout``, the time
    /// a source's download may take. A leader slower than that (a long wait for a place, a slow
    /// decode) lets a follower take over: the work is then done twice, never not at all.
    var leaseTime: Duration { .milliseconds(Int64(configuration.sourceTimeout * 1000)) }

    /// The result of `key`, made once across every instance sharing the result cache's Redis
    /// (``SharedResults`` already makes it once per instance). The instance that takes the
    /// lease on `key` (one `SET NX PX`, for ``leaseTime``) makes it, stores it and ends the
    /// lease; the others look for it every ``leasePollInterval`` (one `GET`) and try the lease
    /// again (one `SET NX`), so a leader that died or failed is taken over once its lease ends.
    /// A follower waits at most the request timeout, then makes the result itself. Without
    /// leases (the `disk` tier) or while Redis does not answer, the result is made at once.
    func makeOnce(_ processing: ProcessingRequest, plan: ImageProcessingPlan, target: OutputTarget, key: String)
        async throws -> ServedImage
    {
        let deadline = ContinuousClock.now + .milliseconds(Int64(configuration.requestTimeout * 1000))
        var takingOver = false
        while true {
            let claimed = await results.claim(key, for: leaseTime)
            if claimed == true, takingOver, let (image, _) = await results.lookup(key) {
                // The leader stored it between the last look and the claim.
                await results.release(key)
                metrics.fleetWaits.increment()
                return image
            }
            if claimed != false || ContinuousClock.now >= deadline {
                let made: Result<ServedImage, any Error>
                do {
                    made = .success(
                        try await admission.run {
                            try await self.make(processing, plan: plan, target: target, key: key)
                        })
                } catch {
                    made = .failure(error)
                }
                if claimed == true { await results.release(key) }
                return try made.get()
            }
            try await Task.sleep(for: Self.leasePollInterval)
            if let (image, _) = await results.lookup(key) {
                metrics.fleetWaits.increment()
                return image
            }
            takingOver = true
        }
    }
}
