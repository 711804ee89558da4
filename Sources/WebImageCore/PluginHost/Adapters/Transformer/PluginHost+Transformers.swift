extension PluginHost {
    /// The transformer `name` from the first plugin in search order whose manifest lists it,
    /// made with `parameters` (that plugin is opened if it was not yet).
    /// - Throws: ``ImageTransformError`` `.unknownTransformer` when no manifest lists the
    ///   name or its plugin cannot be opened (the fault is in the message), `.invalidParameter`
    ///   for a parameter the plugin refuses.
    public func makeTransformer(
        named name: String, parameters: [(key: String, value: String)] = []
    ) throws(ImageTransformError) -> PluginTransformer {
        guard
            let plugin = plugins(of: .transformer).first(where: {
                $0.manifest.transformer?.names.contains(name) == true
            })
        else {
            throw ImageTransformError(.unknownTransformer, "no transformer plugin makes '\(name)'")
        }
        let factory: PluginTransformerFactory
        do throws(PluginFault) {
            factory = try adapter(PluginTransformerFactory.self, named: plugin.name)
        } catch {
            throw ImageTransformError(.unknownTransformer, "the plugin for '\(name)' cannot be opened: \(error)")
        }
        return try factory.makeTransformer(name: name, parameters: parameters)
    }

    /// Every transformer name the manifests list, in search order.
    public var transformerNames: [String] {
        plugins(of: .transformer).flatMap { $0.manifest.transformer?.names ?? [] }
    }
}
