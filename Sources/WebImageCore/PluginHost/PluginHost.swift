import Logging

/// Finds plugins through their manifests and opens each library the first time it is needed.
///
/// The host knows no kind: opening a plugin gives an ``OpenedPlugin`` with one
/// ``PluginKindAdapter`` per kind its descriptor declares, and callers ask for the adapter
/// they need (``adapter(_:named:)``). Faults never stop the host: a broken plugin is
/// reported (``faults``, and the log) and skipped while everything else keeps working.
///
/// A ``PluginPolicy`` decides which plugins found on disk may be opened at all: denied,
/// not allowed and takeover attempts by untrusted plugins are ``refusals``, never opened;
/// each takeover attempt is logged as a warning.
///
/// Each plugin is opened once, by the first caller that needs it; concurrent first uses
/// wait for that one opening. The plugin's entry function runs with no lock of the host
/// held, so a slow plugin delays only the callers that need that plugin.
public final class PluginHost: Sendable {
    public let searchPath: PluginSearchPath
    /// The allow, deny and override lists applied to what the search found.
    public let policy: PluginPolicy
    /// The usable plugins found, in search order.
    public let plugins: [DiscoveredPlugin]
    /// The plugins found that the policy keeps closed, in search order.
    public let refusals: [PluginRefusal]
    /// Libraries of trusted folders that lie elsewhere (those plugins are untrusted) and
    /// overlaps between trusted plugins, in search order; each is logged as a warning.
    public let warnings: [PluginWarning]
    /// The kinds this host implements.
    public let adapters: [any PluginKindAdapter.Type]
    /// Which plugins run in worker processes, and how those are supervised.
    public let isolation: PluginIsolation
    private let discoveryFaults: [PluginFault]
    /// One cell per discovered plugin, made at init: the dictionary itself never changes.
    private let openings: [String: OnceCell<Result<OpenedPlugin, PluginFault>>]
    /// The plugins that run in worker processes; made at init and never changed.
    let isolated: IsolatedPlugins
    /// Faults of plugins whose entry function crashed or hung in `verify`'s child process.
    private let scanFaults = OnceCell<[String: PluginFault]>()
    let logger: Logger

    /// Reads the manifests in `searchPath` and applies `policy` (no library is opened).
    /// - Parameters:
    ///   - policy: which plugins may be opened and which untrusted plugins may override
    ///     trusted ones; default ``PluginPolicy/init(allowedPlugins:deniedPlugins:overridesAllowed:)``
    ///     with no lists (``PluginPolicy/standard(allowedPlugins:deniedPlugins:overridesAllowed:environment:)``
    ///     adds the environment's).
    ///   - adapters: the kinds this host implements; default ``PluginKindAdapters/standard``.
    ///   - logger: where faults are reported, and what isolated plugins and their libraries
    ///     write to standard error; default label `webimage.plugins`.
    ///   - isolation: which plugins run in worker processes; default ``PluginIsolation/Policy/untrusted``
    ///     (plugins outside the search path's trusted folders).
    public init(
        searchPath: PluginSearchPath, policy: PluginPolicy = PluginPolicy(),
        adapters: [any PluginKindAdapter.Type] = PluginKindAdapters.standard,
        logger: Logger = Logger(label: "webimage.plugins"), isolation: PluginIsolation = PluginIsolation()
    ) {
        self.searchPath = searchPath
        self.policy = policy
        self.adapters = adapters
        self.logger = logger
        self.isolation = isolation
        let result = PluginDiscovery.discover(in: searchPath, policy: policy)
        self.plugins = result.plugins
        self.refusals = result.refusals
        self.warnings = result.warnings
        self.discoveryFaults = result.faults
        self.openings = Dictionary(uniqueKeysWithValues: result.plugins.map { ($0.name, OnceCell()) })
        self.isolated = IsolatedPlugins(result.plugins, isolation: isolation, logger: logger)
        // A plugin without a worker to run in is a fault from the start, reported once here
        // (faults, the log) rather than at each decode that would try it.
        for fault in result.faults + isolated.missingWorkerFaults { logger.warning("\(fault)") }
        for refusal in result.refusals where refusal.isWarning { logger.warning("\(refusal)") }
        for warning in result.warnings { logger.warning("\(warning)") }
    }

    /// Every fault so far: from reading manifests, then from opening, in search order.
    public var faults: [PluginFault] {
        discoveryFaults + plugins.compactMap { openFault(of: $0.name) }
    }

    /// The fault that opening the plugin named `name` met so far (in-process, in its worker,
    /// or in `verify`'s child process), or nil.
    public func openFault(of name: String) -> PluginFault? {
        if let fault = scanFaults.computedValue?[name] { return fault }
        if let fault = isolated.openFault(of: name) { return fault }
        if case .failure(let fault) = openings[name]?.computedValue { return fault }
        return nil
    }

    /// The plugins whose manifests declare `kind`, in search order (no library is opened).
    public func plugins(of kind: PluginKind) -> [DiscoveredPlugin] {
        plugins.filter { $0.manifest.kinds.contains(kind) }
    }

    /// The plugin named `name`, opened if it was not yet (once; the result is kept).
    /// - Throws: ``PluginFault`` when there is no such plugin, the policy refuses it
    ///   (`.refused`) or it cannot be opened.
    public func open(_ name: String) throws(PluginFault) -> OpenedPlugin {
        guard let plugin = plugins.first(where: { $0.name == name }), let cell = openings[name] else {
            if let refusal = refusals.first(where: { $0.plugin.name == name }) {
                throw PluginFault(.refused, file: refusal.plugin.manifestPath, plugin: name, detail: refusal.detail)
            }
            let folders = searchPath.directories.joined(separator: ":")
            throw PluginFault(
                .notFound, file: name, plugin: name, detail: "no manifest names it in the search path \(folders)")
        }
        if let fault = scanFaults.computedValue?[name] { throw fault }
        let result = cell.value {
            do throws(PluginFault) {
                return .success(try PluginLibrary.open(plugin, adapters: adapters))
            } catch {
                logger.warning("\(error)")
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The adapter of type `Adapter` of the plugin named `name`, opening the plugin if needed.
    /// - Throws: ``PluginFault`` when there is no such plugin, it cannot be opened, or it does
    ///   not provide that kind.
    public func adapter<Adapter: PluginKindAdapter>(
        _ type: Adapter.Type, named name: String
    ) throws(PluginFault) -> Adapter {
        let opened = try open(name)
        guard let adapter = opened.adapter(type) else {
            throw PluginFault(
                .descriptorMismatch, file: opened.plugin.libraryPath, plugin: name,
                detail: "the plugin provides no \(Adapter.kind.rawValue)")
        }
        return adapter
    }

    /// Opens every plugin and returns the faults of all plugins (manifest and open faults).
    ///
    /// Each plugin is first opened in a child process of its own (a worker that ends right
    /// after, as GStreamer's plugin scanner does), so an entry function that crashes or hangs
    /// is a fault (`.entryCrashed`, `.entryHung`) and is never run in this process. Plugins
    /// that pass are then opened as they are used: in-process, or in their worker when isolated.
    public func verify() -> [PluginFault] {
        _ = scanFaults.value {
            var found: [String: PluginFault] = [:]
            for plugin in plugins {
                if let fault = scanInChild(plugin.name), [.entryCrashed, .entryHung].contains(fault.reason) {
                    logger.warning("\(fault)")
                    found[plugin.name] = fault
                }
            }
            return found
        }
        for plugin in plugins where scanFaults.computedValue?[plugin.name] == nil {
            if isIsolated(plugin.name) {
                _ = try? isolatedCoder(named: plugin.name)
            } else {
                _ = try? open(plugin.name)
            }
        }
        return faults
    }
}
