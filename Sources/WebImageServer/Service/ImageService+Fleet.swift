import FoundationEssentials
import WebImageCore

extension ImageService {
    /// How often an instance waiting behind another's lease looks for the result: every 50 ms.
    static let leasePollInterval = Duration.milliseconds(50)

    /// How long a lease on a result lasts when the result cache renews leases (the `redis`
    /// plugin): 5 s, renewed every ``leaseRenewalInterval`` while the leader works, so the lease
    /// of a leader that died ends at most 5 s later and a follower takes over then.
    static let renewedLeaseTime = Duration.seconds(5)

    /// How often a leader renews its lease: every second (a fifth of ``renewedLeaseTime``, so
    /// a renewal may be 4 s late, on a loaded machine, before the lease ends).
    static let leaseRenewalInterval = Duration.seconds(1)

    /// How long a lease on a result lasts: ``renewedLeaseTime`` when the result cache renews
    /// leases; otherwise ``ImageServerConfiguration/sourceTimeout``, the time a source's
    /// download may take. A leader whose lease ends (it died, or could not renew it in time)
    /// lets a follower take over: the work is then done twice, never not at all.
    var leaseTime: Duration {
        results.renewsLeases
            ? Self.renewedLeaseTime : .milliseconds(Int64(configuration.sourceTimeout * 1000))
    }

    /// The result of `key`, made once across every instance sharing the result cache's Redis
    /// (``SharedResults`` already makes it once per instance). The instance that takes the
    /// lease on `key` (one `SET NX PX`, for ``leaseTime``) makes it, renewing the lease every
    /// ``leaseRenewalInterval`` (one `EVAL` each), stores it and ends the lease (one `EVAL`);
    /// the others look for it every ``leasePollInterval`` (one `GET`) and try the lease
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
                        try await renewingLease(of: key, if: claimed == true) {
                            try await self.admission.run {
                                try await self.make(processing, plan: plan, target: target, key: key)
                            }
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

    /// Runs `work`, renewing the lease of `key` every ``leaseRenewalInterval`` meanwhile when
    /// `held` and the result cache renews leases; stops renewing once a renewal finds the
    /// lease gone (another instance may then do the same work; this one still finishes its own).
    func renewingLease<Value: Sendable>(
        of key: String, if held: Bool, _ work: () async throws -> Value
    ) async throws -> Value {
        guard held, results.renewsLeases else { return try await work() }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [results] in
                while true {
                    try await Task.sleep(for: Self.leaseRenewalInterval)
                    if await results.renew(key, for: Self.renewedLeaseTime) != true { return }
                }
            }
            defer { group.cancelAll() }
            return try await work()
        }
    }
}
