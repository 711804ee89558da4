import CWebImagePlugin
import WebImageCoding

/// The transformers a plugin library exports, with the host's allocator for their output.
struct ExportedTransformers: Sendable {
    let names: [String]
    let threadSafe: Bool
    let make: @Sendable (String, [(key: String, value: String)]) throws(ImageTransformError) -> any ImageTransformer
    let allocator: PixelAllocator

    private static let current = TrackedMutex<ExportedTransformers?>(nil)

    /// The same transformers, with their output in memory from `allocator`.
    func allocating(from allocator: PixelAllocator) -> ExportedTransformers {
        ExportedTransformers(names: names, threadSafe: threadSafe, make: make, allocator: allocator)
    }

    /// Installs the transformers; the first installation wins for the life of the process.
    static func install(_ exported: ExportedTransformers) {
        current.withLock { if $0 == nil { $0 = exported } }
    }

    /// The installed transformers. The entry function installs them before any table function can run.
    static var installed: ExportedTransformers {
        guard let exported = current.withLock({ $0 }) else {
            fatalError("webimage plugin kit: a transformer function was called before webimage_plugin_entry")
        }
        return exported
    }
}
