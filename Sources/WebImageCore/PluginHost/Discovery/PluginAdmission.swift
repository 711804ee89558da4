/// Applies a ``PluginPolicy`` to the plugins discovery found: which are admitted (may be
/// opened), which are refused, and which are duplicates.
struct PluginAdmission {
    /// The admitted plugins in search order, the refused ones in search order, and a
    /// `.duplicateName` fault for each plugin whose name an admitted plugin already has.
    struct Outcome {
        var plugins: [DiscoveredPlugin] = []
        var refusals: [PluginRefusal] = []
        var faults: [PluginFault] = []
        /// One ``PluginWarning/Kind/trustedOverlap`` per trusted plugin claiming what an
        /// earlier trusted plugin claims.
        var warnings: [PluginWarning] = []
    }

    let policy: PluginPolicy

    /// Decides in this order: the allow and deny lists close plugins; trusted plugins keep
    /// their names (the first of a name in search order wins among them) unless an untrusted
    /// plugin of that name may override; untrusted plugins that claim what an admitted trusted
    /// plugin serves are refused unless they may override; the rest keep the first plugin of
    /// each name in search order.
    func admit(_ candidates: [DiscoveredPlugin]) -> Outcome {
        var outcome = Outcome()
        var open: [DiscoveredPlugin] = []
        for candidate in candidates {
            if let reason = policy.closure(of: candidate.name) {
                outcome.refusals.append(PluginRefusal(plugin: candidate, reason: reason))
            } else {
                open.append(candidate)
            }
        }
        let overriding = Set(open.filter { mayOverride($0) }.map(\.name))
        var admitted: [String: DiscoveredPlugin] = [:]
        var protectedClaims: [(plugin: String, claim: PluginClaim)] = []
        for candidate in open where candidate.trust == .trusted {
            if overriding.contains(candidate.name) {
                outcome.refusals.append(PluginRefusal(plugin: candidate, reason: .overridden(by: candidate.name)))
            } else if admit(candidate, into: &admitted, faults: &outcome.faults) {
                // Same names are duplicates (above); any other claim in common is an overlap.
                let overlaps = conflicts(of: candidate, with: protectedClaims).filter { $0.claim.kind != .pluginName }
                if !overlaps.isEmpty {
                    outcome.warnings.append(
                        PluginWarning(
                            .trustedOverlap, plugin: candidate,
                            detail: "trusted plugin overlaps " + overlaps.map(\.description).joined(separator: ", ")
                                + "; either may serve them: check the trusted folder"))
                }
                protectedClaims += candidate.manifest.claims.map { (candidate.name, $0) }
            }
        }
        for candidate in open where candidate.trust == .untrusted {
            if !mayOverride(candidate) {
                let conflicts = conflicts(of: candidate, with: protectedClaims)
                if !conflicts.isEmpty {
                    outcome.refusals.append(PluginRefusal(plugin: candidate, reason: .takeover(conflicts)))
                    continue
                }
            }
            _ = admit(candidate, into: &admitted, faults: &outcome.faults)
        }
        let order = Dictionary(
            candidates.enumerated().map { ($0.element.manifestPath, $0.offset) },
            uniquingKeysWith: { first, _ in first })
        let admittedPaths = Set(admitted.values.map(\.manifestPath))
        outcome.plugins = candidates.filter { admittedPaths.contains($0.manifestPath) }
        outcome.refusals.sort { order[$0.plugin.manifestPath, default: 0] < order[$1.plugin.manifestPath, default: 0] }
        return outcome
    }

    /// Each claim of `candidate` that collides with one of `claims` (of trusted plugins).
    private func conflicts(
        of candidate: DiscoveredPlugin, with claims: [(plugin: String, claim: PluginClaim)]
    ) -> [PluginRefusal.Conflict] {
        candidate.manifest.claims.flatMap { claim in
            claims.filter { $0.claim.collides(with: claim) }.map {
                PluginRefusal.Conflict(claim: claim, trustedPlugin: $0.plugin, trustedClaim: $0.claim)
            }
        }
    }

    /// An untrusted plugin the policy allows to take over trusted plugins' claims.
    private func mayOverride(_ plugin: DiscoveredPlugin) -> Bool {
        plugin.trust == .untrusted && policy.overridesAllowed.contains(plugin.name)
    }

    /// Adds `plugin` unless its name is taken, in which case it is a `.duplicateName` fault.
    private func admit(
        _ plugin: DiscoveredPlugin, into admitted: inout [String: DiscoveredPlugin], faults: inout [PluginFault]
    ) -> Bool {
        if let earlier = admitted[plugin.name] {
            faults.append(
                PluginFault(
                    .duplicateName, file: plugin.manifestPath, plugin: plugin.name,
                    detail:
                        "a plugin named '\(plugin.name)' was already found at \(earlier.manifestPath); this one is skipped"
                ))
            return false
        }
        admitted[plugin.name] = plugin
        return true
    }
}
