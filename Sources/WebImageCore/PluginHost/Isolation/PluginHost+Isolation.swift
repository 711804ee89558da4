extension PluginHost {
    /// True when the plugin named `name` runs in a worker process under this host's
    /// ``isolation`` policy.
    public func isIsolated(_ name: String) -> Bool {
        isolated.plugins[name] != nil
    }

    /// The coder of the isolated plugin named `name`, opened in its worker on first use.
    /// - Throws: ``PluginFault`` when the plugin is not isolated, or cannot be opened (a crash
    ///   or hang of its entry function included).
    public func isolatedCoder(named name: String) throws(PluginFault) -> IsolatedCoder {
        guard let plugin = isolated.plugins[name], let cell = isolated.openings[name] else {
            throw PluginFault(.notFound, file: name, plugin: name, detail: "the plugin does not run isolated")
        }
        let result = cell.value {
            do {
                return .success(IsolatedCoder(plugin: plugin, opened: try plugin.open()))
            } catch let fault as PluginFault {
                logger.warning("\(fault)")
                return .failure(fault)
            } catch {
                let fault = PluginFault(
                    .loadFailed, file: plugin.plugin.libraryPath, plugin: name, detail: "\(error)")
                logger.warning("\(fault)")
                return .failure(fault)
            }
        }
        return try result.get()
    }

    /// Opens the plugin named `name` in a worker process of its own that ends right after (as
    /// GStreamer's plugin scanner does), so that a crash or hang of its entry function cannot
    /// reach this process. Checks every kind the plugin declares.
    /// - Returns: the fault (`.entryCrashed` or `.entryHung` for a crash or a hang), or nil when
    ///   the plugin opens.
    public func scanInChild(_ name: String) -> PluginFault? {
        guard let plugin = plugins.first(where: { $0.name == name }) else {
            return PluginFault(.notFound, file: name, plugin: name, detail: "no manifest names it in the search path")
        }
        return IsolatedPlugin(plugin: plugin, isolation: isolation, logger: logger).scan()
    }
}
