import CWebImagePlugin

#if canImport(Glibc)
    import Glibc
#endif

/// A plugin's `webimage_transformer` table: makes ``PluginTransformer``s by name.
public final class PluginTransformerFactory: PluginKindAdapter, @unchecked Sendable {
    // @unchecked: `table` is a copy of immutable C function pointers from a library that is
    // never unloaded; `serialiser` guards calls when the plugin is not thread-safe.
    let table: webimage_transformer
    public let pluginName: String
    /// The names the plugin makes, as its table lists them.
    public let names: [String]
    /// True when `transform` may run on several threads at once.
    public let isThreadSafe: Bool
    /// True when the plugin takes RGBA16 input; else the host converts to RGBA8 first.
    public let acceptsRGBA16: Bool
    private let serialiser = TrackedMutex(())

    public static var kind: PluginKind { .transformer }

    /// Wraps the descriptor's transformer table; its names must be the manifest's
    /// `transformer.names`.
    public init(descriptor: webimage_plugin_descriptor, plugin: DiscoveredPlugin) throws(PluginFault) {
        let pointer = try plugin.requireTable(descriptor.transformer, of: "transformer")
        let minimumSize = MemoryLayout<webimage_transformer>.size
        let declared = ABIStruct.declaredSize(pointer)
        guard declared >= minimumSize else {
            throw plugin.mismatch("the transformer table is \(declared) bytes, at least \(minimumSize) needed")
        }
        let table = ABIStruct.read(pointer)
        guard table.name_count > 0 else { throw plugin.mismatch("the transformer table lists no names") }
        self.table = table
        self.pluginName = plugin.name
        self.names = (0..<Int(table.name_count)).map { String(cString: table.names[$0]) }
        self.isThreadSafe = table.flags & WEBIMAGE_TRANSFORMER_THREAD_SAFE != 0
        self.acceptsRGBA16 = table.flags & WEBIMAGE_TRANSFORMER_RGBA16 != 0
        let listed = plugin.manifest.transformer?.names ?? []
        guard names.sorted() == listed.sorted() else {
            throw plugin.mismatch(
                "the library makes transformers [\(names.joined(separator: ", "))], the manifest lists [\(listed.joined(separator: ", "))]"
            )
        }
    }

    /// Makes the transformer `name` with `parameters` (key/value strings, passed in order).
    /// - Throws: ``ImageTransformError`` `.unknownTransformer` for a name the plugin does not
    ///   make, `.invalidParameter` with the plugin's reason for a bad parameter.
    public func makeTransformer(
        name: String, parameters: [(key: String, value: String)] = []
    ) throws(ImageTransformError) -> PluginTransformer {
        guard names.contains(name) else {
            throw ImageTransformError(
                .unknownTransformer,
                "plugin '\(pluginName)' makes no transformer named '\(name)' (it makes \(names.joined(separator: ", ")))"
            )
        }
        let message = ErrorMessageBuffer()
        var instance: OpaquePointer?
        let status = withParameters(parameters) { cParameters, count in
            call { message.withError { table.create(name, cParameters, count, &instance, $0) } }
        }
        guard status == WEBIMAGE_STATUS_OK, let instance else {
            if let instance { table.destroy(instance) }
            let failure = PluginStatus(status == WEBIMAGE_STATUS_OK ? WEBIMAGE_STATUS_INTERNAL_ERROR : status)
            throw failure.transformError(
                message.message(or: "plugin '\(pluginName)' could not make '\(name)' (\(failure))"))
        }
        return PluginTransformer(factory: self, instance: instance)
    }

    /// Runs `body` alone when the plugin is not thread-safe.
    func call<Result>(_ body: () throws -> Result) rethrows -> Result {
        if isThreadSafe { return try body() }
        return try serialiser.withLock { _ in try body() }
    }

    /// Calls `body` with the parameters as C structs whose strings live for the call.
    private func withParameters<Result>(
        _ parameters: [(key: String, value: String)],
        _ body: (UnsafePointer<webimage_parameter>?, UInt32) -> Result
    ) -> Result {
        let strings = parameters.map { (key: strdup($0.key)!, value: strdup($0.value)!) }
        defer {
            for pair in strings {
                free(pair.key)
                free(pair.value)
            }
        }
        let structs = strings.map { webimage_parameter(key: $0.key, value: $0.value) }
        return structs.withUnsafeBufferPointer { body($0.baseAddress, UInt32(structs.count)) }
    }
}
