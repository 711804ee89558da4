import CWebImagePlugin

extension ShimCall {
    /// Calls an encoding shim with an empty `webimage_output_buffer` over `allocator` and an
    /// empty `webimage_error`, and takes the bytes it wrote without a copy.
    ///
    /// - Throws: ``ImageCodingError`` when the shim fails (the buffer is freed) or writes nothing.
    public func encode(
        into allocator: PixelAllocator,
        _ body: (inout webimage_output_buffer, inout webimage_error) -> webimage_status
    ) throws(ImageCodingError) -> EncodedImageData {
        try allocator.withCAllocator { cAllocator throws(ImageCodingError) -> EncodedImageData in
            var output = webimage_output_buffer_make(cAllocator)
            do throws(ImageCodingError) {
                try run { body(&output, &$0) }
            } catch {
                webimage_output_buffer_discard(&output)
                throw error
            }
            guard let bytes = output.bytes, output.size > 0 else {
                webimage_output_buffer_discard(&output)
                throw ImageCodingError(.internalError, "\(library) wrote no bytes")
            }
            return EncodedImageData(taking: bytes, count: output.size, allocator: allocator)
        }
    }
}
