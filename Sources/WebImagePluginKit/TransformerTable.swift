import CWebImagePlugin
import WebImageCoding

#if canImport(Glibc)
    import Glibc
#endif

/// The `webimage_transformer` table of exported transformers. The opaque instance is a
/// retained ``TransformerTable/Instance``.
enum TransformerTable {
    /// One transformer made by `create`, with its key as a C string for `key`.
    final class Instance {
        let transformer: any ImageTransformer
        let key: UnsafeMutablePointer<CChar>

        init(_ transformer: any ImageTransformer) {
            self.transformer = transformer
            self.key = strdup(transformer.transformerKey)!
        }

        deinit { free(key) }
    }

    /// A table whose functions find the transformers through ``ExportedTransformers/installed``;
    /// allocated once and never freed (the host may use it for the life of the process).
    static func make(for exported: ExportedTransformers) -> UnsafePointer<webimage_transformer> {
        let names = UnsafeMutablePointer<UnsafePointer<CChar>>.allocate(capacity: exported.names.count)
        for (index, name) in exported.names.enumerated() {
            (names + index).initialize(to: UnsafePointer(strdup(name)!))
        }
        let table = UnsafeMutablePointer<webimage_transformer>.allocate(capacity: 1)
        table.initialize(
            to: webimage_transformer(
                struct_size: UInt32(MemoryLayout<webimage_transformer>.size),
                flags: (exported.threadSafe ? WEBIMAGE_TRANSFORMER_THREAD_SAFE : 0) | WEBIMAGE_TRANSFORMER_RGBA16,
                names: UnsafePointer(names), name_count: UInt32(exported.names.count), reserved: 0,
                create: create, key: key, transform: transform, destroy: destroy))
        return UnsafePointer(table)
    }

    static func instance(_ pointer: OpaquePointer) -> Instance {
        Unmanaged<Instance>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    static let create:
        @convention(c) (
            UnsafePointer<CChar>, UnsafePointer<webimage_parameter>?, UInt32, UnsafeMutablePointer<OpaquePointer?>,
            UnsafeMutablePointer<webimage_error>
        ) -> webimage_status = { name, parameters, count, instance, error in
            reportingErrors(error) {
                let pairs = (0..<Int(count)).map {
                    (key: String(cString: parameters![$0].key), value: String(cString: parameters![$0].value))
                }
                let exported = ExportedTransformers.installed
                let wanted = String(cString: name)
                guard exported.names.contains(wanted) else {
                    throw ImageTransformError(.unknownTransformer, "no transformer named '\(wanted)'")
                }
                let made = try exported.make(wanted, pairs)
                instance.pointee = OpaquePointer(Unmanaged.passRetained(Instance(made)).toOpaque())
            }
        }

    static let key: @convention(c) (OpaquePointer) -> UnsafePointer<CChar> = { pointer in
        UnsafePointer(instance(pointer).key)
    }

    static let transform:
        @convention(c) (
            OpaquePointer, UnsafePointer<webimage_image_view>, UnsafeMutablePointer<webimage_image>,
            UnsafeMutablePointer<webimage_error>
        ) -> webimage_status = { pointer, view, output, error in
            reportingErrors(error) {
                let input: PixelBuffer
                do {
                    input = try PixelBuffer(borrowing: view.pointee)
                } catch {
                    throw ImageTransformError(.invalidParameter, "\(error)")
                }
                let result = try instance(pointer).transformer.transform(input)
                try handOver(result, to: output, allocator: ExportedTransformers.installed.allocator)
            }
        }

    static let destroy: @convention(c) (OpaquePointer?) -> Void = { pointer in
        if let pointer { Unmanaged<Instance>.fromOpaque(UnsafeRawPointer(pointer)).release() }
    }

    /// Copies `pixels` into memory from `allocator` (the host's) and describes it in `output`.
    static func handOver(
        _ pixels: PixelBuffer, to output: UnsafeMutablePointer<webimage_image>, allocator: PixelAllocator
    ) throws(ImageTransformError) {
        let copy: PixelBuffer
        do {
            copy = try PixelBuffer(
                width: pixels.width, height: pixels.height, format: pixels.format, allocator: allocator)
        } catch {
            throw ImageTransformError(
                .outOfMemory, "cannot allocate \(pixels.width)×\(pixels.height) pixels for the host")
        }
        let rowBytes = pixels.width * pixels.format.bytesPerPixel
        for y in 0..<pixels.height { copy.row(y).copyMemory(from: pixels.row(y), byteCount: rowBytes) }
        var image = webimage_image()
        image.struct_size = UInt32(MemoryLayout<webimage_image>.size)
        image.width = UInt32(copy.width)
        image.height = UInt32(copy.height)
        image.pixel_format = copy.format.rawValue
        image.stride = copy.bytesPerRow
        image.pixels = copy.detach()
        image.orientation = 1
        image.write(to: output)
    }
}
