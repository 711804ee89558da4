import CWebImagePlugin
import WebImageCoding
@_exported import WebImagePluginDescriptor

extension PluginDescriptorBuilder {
    /// Adds the coder kind. The table exposes incremental decoding when `coder` is a
    /// ``ProgressiveImageCoder`` and animations when it is an ``AnimatedImageCoder``.
    /// - Parameter threadSafe: the coder may be called from several threads at once; default true.
    public func coder(_ coder: some ImageCoder, threadSafe: Bool = true) -> Self {
        var copy = self
        copy.coderTable = { host in
            ExportedCoder.install(ExportedCoder(coder: coder, allocator: PixelAllocator(host: host)))
            return CoderTable.make(for: coder, threadSafe: threadSafe)
        }
        return copy
    }

    /// Adds the transformer kind: the host makes transformer `name` (one of `names`, the
    /// manifest's `transformer.names`) through `make`, with the parameters of
    /// `--transform NAME:k=v,...` in order. The transformers' keys reach the host behind the
    /// plugin's name; their output is copied once into the host's memory.
    /// - Parameter threadSafe: the transformers may run on several threads at once; default true.
    public func transformers(
        _ names: [String], threadSafe: Bool = true,
        make:
            @escaping @Sendable (_ name: String, _ parameters: [(key: String, value: String)])
            throws(ImageTransformError) -> any ImageTransformer
    ) -> Self {
        var copy = self
        let transformers = ExportedTransformers(names: names, threadSafe: threadSafe, make: make, allocator: .system)
        copy.transformerTable = { host in
            let exported = transformers.allocating(from: PixelAllocator(host: host))
            ExportedTransformers.install(exported)
            return TransformerTable.make(for: exported)
        }
        return copy
    }
}

/// Shorthands for a library that exports one kind.
public enum PluginExport {
    /// The descriptor of a library whose only kind is `coder`; see ``PluginDescriptorBuilder``.
    /// - Parameter threadSafe: the coder may be called from several threads at once; default true.
    public static func coder(
        _ coder: some ImageCoder, name: String, version: String, host: UnsafePointer<webimage_host>,
        threadSafe: Bool = true
    ) -> UnsafeRawPointer? {
        PluginDescriptorBuilder(name: name, version: version).coder(coder, threadSafe: threadSafe)
            .descriptor(host: host)
    }
}
