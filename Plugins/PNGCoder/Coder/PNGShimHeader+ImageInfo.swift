import CPNGShim
import WebImageCore

/// Runs one shim function with a message buffer and turns its status into an ``ImageCodingError``.
enum PNGShimCall {
    /// Bytes of the message buffer handed to the shim.
    static let messageCapacity = 256

    static func run(_ body: (inout png_shim_error) -> png_shim_status) throws(ImageCodingError) {
        var storage = [CChar](repeating: 0, count: messageCapacity)
        let (status, message): (png_shim_status, String) = storage.withUnsafeMutableBufferPointer { buffer in
            var error = png_shim_error(message: buffer.baseAddress!, capacity: messageCapacity)
            let status = body(&error)
            return (status, String(cString: buffer.baseAddress!))
        }
        if status != PNG_SHIM_OK { throw error(status, message) }
    }

    static func error(_ status: png_shim_status, _ message: String) -> ImageCodingError {
        let detail = message.isEmpty ? "libpng failed" : message
        switch status {
        case PNG_SHIM_NOT_PNG: return ImageCodingError(.unsupportedFormat, detail)
        case PNG_SHIM_TRUNCATED: return ImageCodingError(.truncatedData, "truncated PNG: \(detail)")
        case PNG_SHIM_TOO_LARGE: return ImageCodingError(.tooLarge, detail)
        case PNG_SHIM_OUT_OF_MEMORY: return ImageCodingError(.outOfMemory, detail)
        case PNG_SHIM_NEED_MORE_DATA: return ImageCodingError(.needMoreData, detail)
        default: return ImageCodingError(.corruptData, "corrupt PNG: \(detail)")
        }
    }
}

extension png_shim_header {
    /// The header as ``ImageInfo``.
    var imageInfo: ImageInfo {
        var traits: ImageInfo.Traits = []
        if has_alpha != 0 { traits.insert(.hasAlpha) }
        if interlaced != 0 { traits.insert(.interlaced) }
        if color_type == 3 { traits.insert(.indexed) }
        if color_type & 2 == 0 && color_type != 3 { traits.insert(.grayscale) }
        return ImageInfo(
            format: PNGImageCoder.format.name, width: Int(width), height: Int(height), frameCount: 1, loopCount: 0,
            orientation: .up, bitsPerComponent: Int(bit_depth), traits: traits)
    }
}
