import CWebImagePlugin
import WebImageCoding

/// The one coder a plugin library exports, with the host it was given.
struct ExportedCoder: Sendable {
    let coder: any ImageCoder
    let allocator: PixelAllocator

    private static let current = TrackedMutex<ExportedCoder?>(nil)

    /// Installs the coder; the first installation wins for the life of the process.
    static func install(_ exported: ExportedCoder) {
        current.withLock { if $0 == nil { $0 = exported } }
    }

    /// The installed coder. The entry function installs it before any table function can run.
    static var installed: ExportedCoder {
        guard let exported = current.withLock({ $0 }) else {
            fatalError("webimage plugin kit: a coder function was called before webimage_plugin_entry")
        }
        return exported
    }
}

/// Hands a decoded image to the host's struct, with the index of its format in the
/// exported coder's formats.
func handOver(_ image: DecodedImage, to destination: UnsafeMutablePointer<webimage_image>) {
    let formats = ExportedCoder.installed.coder.formats
    let index = formats.firstIndex { $0.name == image.format } ?? 0
    webimage_image(handingOver: image, formatIndex: index).write(to: destination)
}

/// Hands encoded bytes to the host: without a copy when the coder wrote them into memory
/// from the host's allocator, else as one copy into it.
func handOver(_ bytes: EncodedImageData, to output: UnsafeMutablePointer<webimage_buffer>) throws {
    let allocator = ExportedCoder.installed.allocator
    if let memory = bytes.detach(ifAllocatedBy: allocator) {
        output.pointee = webimage_buffer(bytes: memory.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        return
    }
    guard let memory = allocator.allocate(max(bytes.count, 1), 16) else {
        throw ImageCodingError(.outOfMemory, "could not allocate \(bytes.count) bytes for the encoded image")
    }
    bytes.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    output.pointee = webimage_buffer(bytes: memory.assumingMemoryBound(to: UInt8.self), size: bytes.count)
}
