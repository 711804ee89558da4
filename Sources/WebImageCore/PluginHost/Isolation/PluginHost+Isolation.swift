extension PluginHost {
    /// True when the plugin named `name` runs in a worker process under this host's
    /// ``isolation`` policy.
    public func isIsolated(_ name: String) -> Bool {
        isolatedPlugins[name] != nil
    }

    /// The coder of the isolated plugin named `name`, opened in its worker on first use.
    /// - Throws: ``PluginFault`` when the plugin is not isolated, or cannot be opened (a crash
    ///   or hang of its entry function included).
    public func isolatedCoder(named name: String) throws(PluginFault) -> IsolatedCoder {
        guard let isolated = isolatedPlugins[name], let cell = isolatedOpenings[name] else {
            throw PluginFault(.notFound, file: name, plugin: name, detail: "the plugin does not run isolated")
        }
        let result = cell.value {
            do {
                return .success(IsolatedCoder(plugin: isolated, opened: try isolated.open()))
            } catch let fault as PluginFault {
                logger.warning("\(fault)")
                return .failure(fault)
            } catch {
                let fault = PluginFault(
                    .loadFailed, file: isolated.plugin.libraryPath, plugin: name, detail: "\(error)")
                logger.warning("\(fault)")
                return .failure(fault)
            }
        }
        return try result.get()
    }
}
