import CWebImagePlugin

/// Writes a file that is assembled in Swift straight into memory from an allocator
/// (a `webimage_output_buffer`, growing by doubling), then hands the bytes over as
/// ``EncodedImageData`` without a copy.
///
/// For coders that build their output piece by piece, such as the APNG writer: with the
/// host's allocator, the file reaches the host as written.
public final class EncodedImageWriter {
    private let forwarder: CAllocatorForwarder
    private var output: webimage_output_buffer

    /// An empty writer allocating from `allocator`.
    public init(allocator: PixelAllocator) {
        forwarder = CAllocatorForwarder(allocator)
        output = webimage_output_buffer_make(forwarder.cAllocator)
    }

    deinit {
        webimage_output_buffer_discard(&output)
    }

    /// Number of bytes written so far.
    public var count: Int { output.size }

    /// Appends `bytes`.
    /// - Throws: ``ImageCodingError`` `.outOfMemory` when the buffer cannot grow.
    public func append(_ bytes: UnsafeRawBufferPointer) throws(ImageCodingError) {
        guard webimage_output_buffer_append(&output, bytes.baseAddress, bytes.count) else {
            throw growthFailure(adding: bytes.count)
        }
    }

    /// Appends `bytes`.
    /// - Throws: ``ImageCodingError`` `.outOfMemory` when the buffer cannot grow.
    public func append(_ bytes: some Collection<UInt8>) throws(ImageCodingError) {
        let appendStorage = { (storage: UnsafeBufferPointer<UInt8>) in
            webimage_output_buffer_append(&self.output, storage.baseAddress, storage.count)
        }
        let appended =
            bytes.withContiguousStorageIfAvailable(appendStorage) ?? Array(bytes).withUnsafeBufferPointer(appendStorage)
        guard appended else { throw growthFailure(adding: bytes.count) }
    }

    private func growthFailure(adding count: Int) -> ImageCodingError {
        ImageCodingError(.outOfMemory, "could not grow the encoded image to \(output.size + count) bytes")
    }

    /// The bytes written, owned by the returned value; the writer is empty afterwards.
    /// - Throws: ``ImageCodingError`` `.internalError` when nothing was written.
    public func finish() throws(ImageCodingError) -> EncodedImageData {
        guard let bytes = output.bytes, output.size > 0 else {
            throw ImageCodingError(.internalError, "the encoded image is empty")
        }
        let count = output.size
        output = webimage_output_buffer_make(forwarder.cAllocator)
        return EncodedImageData(taking: bytes, count: count, allocator: forwarder.allocator)
    }
}
