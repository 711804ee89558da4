import CGIFShim
import WebImageCore

/// Runs one shim function with a message buffer and turns its status into an ``ImageCodingError``.
enum GIFShimCall {
    /// Bytes of the message buffer handed to the shim.
    static let messageCapacity = 256

    static func run(_ body: (inout gif_shim_error) -> gif_shim_status) throws(ImageCodingError) {
        var storage = [CChar](repeating: 0, count: messageCapacity)
        let (status, message): (gif_shim_status, String) = storage.withUnsafeMutableBufferPointer { buffer in
            var error = gif_shim_error(message: buffer.baseAddress!, capacity: messageCapacity)
            let status = body(&error)
            return (status, String(cString: buffer.baseAddress!))
        }
        if status != GIF_SHIM_OK { throw error(status, message) }
    }

    static func error(_ status: gif_shim_status, _ message: String) -> ImageCodingError {
        let detail = message.isEmpty ? "giflib failed" : message
        switch status {
        case GIF_SHIM_NOT_GIF: return ImageCodingError(.unsupportedFormat, detail)
        case GIF_SHIM_TRUNCATED: return ImageCodingError(.truncatedData, "truncated GIF: \(detail)")
        case GIF_SHIM_TOO_LARGE: return ImageCodingError(.tooLarge, detail)
        case GIF_SHIM_OUT_OF_MEMORY: return ImageCodingError(.outOfMemory, detail)
        case GIF_SHIM_INVALID_ARGUMENT: return ImageCodingError(.invalidArgument, detail)
        default: return ImageCodingError(.corruptData, "corrupt GIF: \(detail)")
        }
    }
}

extension gif_shim_info {
    /// The scan's findings as ``ImageInfo``.
    var imageInfo: ImageInfo {
        var traits: ImageInfo.Traits = [.indexed]
        if has_transparency != 0 { traits.insert(.hasAlpha) }
        if frame_count > 1 { traits.insert(.animated) }
        return ImageInfo(
            format: GIFImageCoder.format.name, width: Int(width), height: Int(height), frameCount: Int(frame_count),
            loopCount: Int(loop_count), orientation: .up, bitsPerComponent: 8, traits: traits)
    }
}
