import CJPEGShim
import WebImageCore

/// Runs one shim function with a message buffer and turns its status into an ``ImageCodingError``.
enum JPEGShimCall {
    /// Bytes of the message buffer handed to the shim (libjpeg's messages are shorter).
    static let messageCapacity = 256

    static func run(_ body: (inout jpeg_shim_error) -> jpeg_shim_status) throws(ImageCodingError) {
        var storage = [CChar](repeating: 0, count: messageCapacity)
        let (status, message): (jpeg_shim_status, String) = storage.withUnsafeMutableBufferPointer { buffer in
            var error = jpeg_shim_error(message: buffer.baseAddress!, capacity: messageCapacity)
            let status = body(&error)
            return (status, String(cString: buffer.baseAddress!))
        }
        if status != JPEG_SHIM_OK { throw error(status, message) }
    }

    static func error(_ status: jpeg_shim_status, _ message: String) -> ImageCodingError {
        let detail = message.isEmpty ? "libjpeg failed" : message
        switch status {
        case JPEG_SHIM_NOT_JPEG: return ImageCodingError(.unsupportedFormat, detail)
        case JPEG_SHIM_TRUNCATED: return ImageCodingError(.truncatedData, "truncated JPEG: \(detail)")
        case JPEG_SHIM_TOO_LARGE: return ImageCodingError(.tooLarge, detail)
        case JPEG_SHIM_OUT_OF_MEMORY: return ImageCodingError(.outOfMemory, detail)
        case JPEG_SHIM_INVALID_ARGUMENT: return ImageCodingError(.invalidArgument, detail)
        default: return ImageCodingError(.corruptData, "corrupt JPEG: \(detail)")
        }
    }
}

extension jpeg_shim_header {
    /// The header as ``ImageInfo``.
    var imageInfo: ImageInfo {
        var traits: ImageInfo.Traits = []
        if progressive != 0 { traits.insert(.progressive) }
        if components == 1 { traits.insert(.grayscale) }
        if cmyk != 0 { traits.insert(.cmyk) }
        return ImageInfo(
            format: JPEGImageCoder.format.name, width: Int(width), height: Int(height), frameCount: 1, loopCount: 0,
            orientation: ImageOrientation(exifValue: UInt32(orientation)), bitsPerComponent: 8, traits: traits)
    }
}
