import Logging

/// The plugins a host runs in worker processes, by name, each with the coder its worker
/// opened (on first use). Made once, when the host is made; only the cells fill later.
struct IsolatedPlugins: Sendable {
    let plugins: [String: IsolatedPlugin]
    /// One cell per isolated plugin: its coder, opened in its worker on first use, or the fault.
    let openings: [String: OnceCell<Result<IsolatedCoder, PluginFault>>]
    /// Plugins without a worker executable to run in: faults from the start, reported once
    /// (the host's faults and log) rather than at each decode that would try them.
    let missingWorkerFaults: [PluginFault]

    /// The plugins of `discovered` that `isolation` isolates.
    init(_ discovered: [DiscoveredPlugin], isolation: PluginIsolation, logger: Logger) {
        let isolated = discovered.filter(isolation.isolates)
        plugins = Dictionary(
            uniqueKeysWithValues: isolated.map {
                ($0.name, IsolatedPlugin(plugin: $0, isolation: isolation, logger: logger))
            })
        openings = Dictionary(uniqueKeysWithValues: isolated.map { ($0.name, OnceCell()) })
        let plugins = plugins
        missingWorkerFaults = isolated.compactMap { plugins[$0.name]?.missingWorkerFault }
        for fault in missingWorkerFaults { _ = openings[fault.plugin ?? ""]?.value { .failure(fault) } }
    }

    /// The fault that opening the isolated plugin `name` in its worker met, or nil.
    func openFault(of name: String) -> PluginFault? {
        guard case .failure(let fault) = openings[name]?.computedValue else { return nil }
        return fault
    }
}
