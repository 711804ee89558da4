import CHEIFShim
import WebImageCore

/// Runs one shim function with a message buffer and turns its status into an ``ImageCodingError``.
enum HEIFShimCall {
    /// Bytes of the message buffer handed to the shim (libheif's messages are shorter).
    static let messageCapacity = 512

    static func run(_ body: (inout heif_shim_error) -> heif_shim_status) throws(ImageCodingError) {
        var storage = [CChar](repeating: 0, count: messageCapacity)
        let (status, message): (heif_shim_status, String) = storage.withUnsafeMutableBufferPointer { buffer in
            var error = heif_shim_error(message: buffer.baseAddress!, capacity: messageCapacity)
            let status = body(&error)
            return (status, String(cString: buffer.baseAddress!))
        }
        if status != HEIF_SHIM_OK { throw error(status, message) }
    }

    static func error(_ status: heif_shim_status, _ message: String) -> ImageCodingError {
        let detail = message.isEmpty ? "libheif failed" : message
        switch status {
        case HEIF_SHIM_NOT_HEIF: return ImageCodingError(.unsupportedFormat, "not a HEIF file: \(detail)")
        case HEIF_SHIM_TRUNCATED: return ImageCodingError(.truncatedData, "truncated HEIF: \(detail)")
        case HEIF_SHIM_TOO_LARGE: return ImageCodingError(.tooLarge, detail)
        case HEIF_SHIM_OUT_OF_MEMORY: return ImageCodingError(.outOfMemory, detail)
        case HEIF_SHIM_INVALID_ARGUMENT: return ImageCodingError(.invalidArgument, detail)
        case HEIF_SHIM_UNSUPPORTED: return ImageCodingError(.unsupportedFormat, "unsupported HEIF: \(detail)")
        case HEIF_SHIM_INTERNAL: return ImageCodingError(.internalError, "HEIF encoder: \(detail)")
        default: return ImageCodingError(.corruptData, "corrupt HEIF: \(detail)")
        }
    }
}

extension heif_shim_info {
    /// The format name: `avif` for AV1 files, `heic` for the rest of the family.
    var formatName: String { is_av1 != 0 ? HEIFImageCoder.avif.name : HEIFImageCoder.heic.name }

    /// The header as ``ImageInfo``: the size as shown (libheif applies rotation and mirroring
    /// while decoding), so the orientation is always `.up`.
    var imageInfo: ImageInfo {
        var traits: ImageInfo.Traits = []
        if has_alpha != 0 { traits.insert(.hasAlpha) }
        if monochrome != 0 { traits.insert(.grayscale) }
        return ImageInfo(
            format: formatName, width: Int(width), height: Int(height), frameCount: 1, loopCount: 0,
            orientation: .up, bitsPerComponent: Int(bits_per_component), traits: traits)
    }
}
