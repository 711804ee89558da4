import Logging

/// The coder plugins as a ``CodersManager`` sees them: registered by manifest, each opened (in
/// process, or in its worker when isolated) the first time the manager needs it.
extension PluginHost {
    /// A coders manager with every coder plugin registered, each opened on first use.
    /// Plugins registered later win ties, so plugins found earlier in the search path
    /// are registered last.
    public func makeCodersManager(logger: Logger = Logger(label: "webimage.coders")) -> CodersManager {
        let manager = CodersManager(logger: logger)
        register(in: manager)
        return manager
    }

    /// Registers every coder plugin in `manager`.
    public func register(in manager: CodersManager) {
        for plugin in plugins(of: .coder).reversed() {
            let name = plugin.name
            manager.register(
                name: name, priority: plugin.manifest.priority,
                formats: plugin.manifest.formats.map { (name: $0.name, extensions: $0.extensions) },
                signatures: plugin.manifest.signatures,
                resolve: { [self] in
                    if isIsolated(name) { return try isolatedCoder(named: name) }
                    return try adapter(PluginCoder.self, named: name)
                })
        }
    }
}
