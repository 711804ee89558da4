import CWebImagePlugin

extension ImageCodingError.Kind {
    /// The kind for a plugin status code; unknown codes are `.internalError`.
    public init(status: webimage_status) {
        switch status {
        case WEBIMAGE_STATUS_INVALID_ARGUMENT: self = .invalidArgument
        case WEBIMAGE_STATUS_UNSUPPORTED_FORMAT: self = .unsupportedFormat
        case WEBIMAGE_STATUS_CORRUPT_DATA: self = .corruptData
        case WEBIMAGE_STATUS_TRUNCATED_DATA: self = .truncatedData
        case WEBIMAGE_STATUS_TOO_LARGE: self = .tooLarge
        case WEBIMAGE_STATUS_OUT_OF_MEMORY: self = .outOfMemory
        case WEBIMAGE_STATUS_NEED_MORE_DATA: self = .needMoreData
        case WEBIMAGE_STATUS_UNSUPPORTED_OPERATION: self = .unsupportedOperation
        default: self = .internalError
        }
    }

    /// The plugin status code for this kind.
    public var status: webimage_status {
        switch self {
        case .invalidArgument: WEBIMAGE_STATUS_INVALID_ARGUMENT
        case .unsupportedFormat: WEBIMAGE_STATUS_UNSUPPORTED_FORMAT
        case .corruptData: WEBIMAGE_STATUS_CORRUPT_DATA
        case .truncatedData: WEBIMAGE_STATUS_TRUNCATED_DATA
        case .tooLarge: WEBIMAGE_STATUS_TOO_LARGE
        case .outOfMemory: WEBIMAGE_STATUS_OUT_OF_MEMORY
        case .needMoreData: WEBIMAGE_STATUS_NEED_MORE_DATA
        case .unsupportedOperation: WEBIMAGE_STATUS_UNSUPPORTED_OPERATION
        case .internalError: WEBIMAGE_STATUS_INTERNAL_ERROR
        }
    }
}
