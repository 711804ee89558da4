import Logging
import Synchronization

/// Finds plugins through their manifests and opens each library the first time it is needed.
///
/// Faults never stop the host: a broken plugin is reported (``faults``, and the log) and
/// skipped while everything else keeps working.
public final class PluginHost: Sendable {
    public let searchPath: PluginSearchPath
    /// The usable plugins found, in search order.
    public let plugins: [DiscoveredPlugin]
    private let discoveryFaults: [PluginFault]
    private let loaded = Mutex<[String: Result<LoadedPlugin, PluginFault>]>([:])
    private let logger: Logger

    /// Reads the manifests in `searchPath` (no library is opened).
    /// - Parameter logger: where faults are reported; default label `webimage.plugins`.
    public init(searchPath: PluginSearchPath, logger: Logger = Logger(label: "webimage.plugins")) {
        self.searchPath = searchPath
        self.logger = logger
        let result = PluginDiscovery.discover(in: searchPath)
        self.plugins = result.plugins
        self.discoveryFaults = result.faults
        for fault in result.faults { logger.warning("\(fault)") }
    }

    /// Every fault so far: from reading manifests, then from loading, in order.
    public var faults: [PluginFault] {
        let loadFaults = loaded.withLock { results in
            plugins.compactMap { plugin -> PluginFault? in
                if case .failure(let fault) = results[plugin.name] { return fault }
                return nil
            }
        }
        return discoveryFaults + loadFaults
    }

    /// The plugin named `name`, loaded if it was not yet (once; the result is kept).
    /// - Throws: ``PluginFault`` when there is no such plugin or it cannot be loaded.
    public func load(_ name: String) throws(PluginFault) -> LoadedPlugin {
        guard let plugin = plugins.first(where: { $0.name == name }) else {
            let folders = searchPath.directories.joined(separator: ":")
            throw PluginFault(
                .notFound, file: name, plugin: name, detail: "no manifest names it in the search path \(folders)")
        }
        let result = loaded.withLock { results in
            if let existing = results[name] { return existing }
            let outcome: Result<LoadedPlugin, PluginFault>
            do throws(PluginFault) {
                outcome = .success(try PluginLoader.load(plugin))
            } catch {
                logger.warning("\(error)")
                outcome = .failure(error)
            }
            results[name] = outcome
            return outcome
        }
        return try result.get()
    }

    /// Loads every plugin and returns the faults of all plugins (manifest and load faults).
    public func verify() -> [PluginFault] {
        for plugin in plugins { _ = try? load(plugin.name) }
        return faults
    }

    /// A coders manager with every coder plugin registered, each loaded on first use.
    /// Plugins registered later win ties, so plugins found earlier in the search path
    /// are registered last.
    public func makeCodersManager(logger: Logger = Logger(label: "webimage.coders")) -> CodersManager {
        let manager = CodersManager(logger: logger)
        register(in: manager)
        return manager
    }

    /// Registers every coder plugin in `manager`.
    public func register(in manager: CodersManager) {
        for plugin in plugins.reversed() where plugin.manifest.kinds.contains(.coder) {
            let name = plugin.name
            manager.register(
                name: name, priority: plugin.manifest.priority,
                formats: plugin.manifest.formats.map { (name: $0.name, extensions: $0.extensions) },
                signatures: plugin.manifest.signatures,
                resolve: { [self] in
                    guard let coder = try load(name).coder else {
                        throw PluginFault(
                            .descriptorMismatch, file: plugin.libraryPath, plugin: name, detail: "no coder table")
                    }
                    return coder
                })
        }
    }
}
