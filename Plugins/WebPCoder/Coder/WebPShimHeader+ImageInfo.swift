import CWebPShim
import WebImageCore

/// Runs one shim function with a message buffer and turns its status into an ``ImageCodingError``.
enum WebPShimCall {
    /// Bytes of the message buffer handed to the shim (its messages are shorter).
    static let messageCapacity = 256

    static func run(_ body: (inout webp_shim_error) -> webp_shim_status) throws(ImageCodingError) {
        var storage = [CChar](repeating: 0, count: messageCapacity)
        let (status, message): (webp_shim_status, String) = storage.withUnsafeMutableBufferPointer { buffer in
            var error = webp_shim_error(message: buffer.baseAddress!, capacity: messageCapacity)
            let status = body(&error)
            return (status, String(cString: buffer.baseAddress!))
        }
        if status != WEBP_SHIM_OK { throw error(status, message) }
    }

    static func error(_ status: webp_shim_status, _ message: String) -> ImageCodingError {
        let detail = message.isEmpty ? "libwebp failed" : message
        switch status {
        case WEBP_SHIM_NOT_WEBP: return ImageCodingError(.unsupportedFormat, detail)
        case WEBP_SHIM_TRUNCATED: return ImageCodingError(.truncatedData, "truncated WebP: \(detail)")
        case WEBP_SHIM_TOO_LARGE: return ImageCodingError(.tooLarge, detail)
        case WEBP_SHIM_OUT_OF_MEMORY: return ImageCodingError(.outOfMemory, detail)
        case WEBP_SHIM_INVALID_ARGUMENT: return ImageCodingError(.invalidArgument, detail)
        case WEBP_SHIM_NEED_MORE_DATA: return ImageCodingError(.needMoreData, detail)
        default: return ImageCodingError(.corruptData, "corrupt WebP: \(detail)")
        }
    }
}

extension webp_shim_header {
    /// The header as ``ImageInfo``.
    var imageInfo: ImageInfo {
        var traits: ImageInfo.Traits = []
        if has_alpha != 0 { traits.insert(.hasAlpha) }
        if animated != 0 { traits.insert(.animated) }
        return ImageInfo(
            format: WebPImageCoder.format.name, width: Int(width), height: Int(height),
            frameCount: Int(max(frame_count, 1)), loopCount: Int(loop_count), orientation: .up, bitsPerComponent: 8,
            traits: traits)
    }

    /// Throws `.tooLarge` when the full canvas is over `request`'s limit.
    func checkFullSize(against request: DecodeRequest) throws {
        let pixels = Int(width) * Int(height)
        if request.maxPixelCount > 0 && pixels > request.maxPixelCount {
            throw ImageCodingError.tooLarge(width: Int(width), height: Int(height), limit: request.maxPixelCount)
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The first byte as `UInt8`, or nil when empty.
    var bytePointer: UnsafePointer<UInt8>? {
        isEmpty ? nil : baseAddress?.assumingMemoryBound(to: UInt8.self)
    }
}
