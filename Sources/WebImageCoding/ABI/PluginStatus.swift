import CWebImagePlugin

/// A status code of the plugin ABI (`webimage_status`) and the Swift error each plugin kind
/// turns it into. One vocabulary serves every kind; each kind maps it to its own error type
/// here.
public struct PluginStatus: Sendable, Equatable, CustomStringConvertible {
    /// The raw `WEBIMAGE_STATUS_*` value.
    public let rawValue: webimage_status

    public init(_ rawValue: webimage_status) {
        self.rawValue = rawValue
    }

    /// True for `WEBIMAGE_STATUS_OK`.
    public var isOK: Bool { rawValue == WEBIMAGE_STATUS_OK }

    public var description: String { "status \(rawValue)" }

    /// The ``ImageCodingError/Kind`` a coder reports for this status.
    ///
    /// Statuses without a coding counterpart of their own: `NOT_FOUND` is `.invalidArgument`
    /// (a frame, item or key asked for that the source does not hold), `IO_ERROR` is
    /// `.internalError` (coders work on bytes in memory, so a failed read or write is a fault
    /// inside the plugin). `OK` and codes this host does not know are `.internalError`.
    public var codingErrorKind: ImageCodingError.Kind {
        switch rawValue {
        case WEBIMAGE_STATUS_INVALID_ARGUMENT: .invalidArgument
        case WEBIMAGE_STATUS_UNSUPPORTED_FORMAT: .unsupportedFormat
        case WEBIMAGE_STATUS_CORRUPT_DATA: .corruptData
        case WEBIMAGE_STATUS_TRUNCATED_DATA: .truncatedData
        case WEBIMAGE_STATUS_TOO_LARGE: .tooLarge
        case WEBIMAGE_STATUS_OUT_OF_MEMORY: .outOfMemory
        case WEBIMAGE_STATUS_NEED_MORE_DATA: .needMoreData
        case WEBIMAGE_STATUS_UNSUPPORTED_OPERATION: .unsupportedOperation
        case WEBIMAGE_STATUS_CANCELLED: .cancelled
        case WEBIMAGE_STATUS_NOT_FOUND: .invalidArgument
        case WEBIMAGE_STATUS_TIMED_OUT: .timedOut
        default: .internalError
        }
    }

    /// The coding error for this status with `message`.
    public func codingError(_ message: String) -> ImageCodingError {
        ImageCodingError(codingErrorKind, message)
    }
}

extension PluginStatus {
    /// The ``ImageTransformError/Kind`` a transformer plugin's status becomes:
    /// `INVALID_ARGUMENT` is a bad parameter, `NOT_FOUND` an unknown transformer name,
    /// `TOO_LARGE` and `OUT_OF_MEMORY` keep their meaning, anything else is `.internalError`.
    public var transformErrorKind: ImageTransformError.Kind {
        switch rawValue {
        case WEBIMAGE_STATUS_INVALID_ARGUMENT: .invalidParameter
        case WEBIMAGE_STATUS_NOT_FOUND: .unknownTransformer
        case WEBIMAGE_STATUS_TOO_LARGE: .tooLarge
        case WEBIMAGE_STATUS_OUT_OF_MEMORY: .outOfMemory
        default: .internalError
        }
    }

    /// The transform error for this status with `message`.
    public func transformError(_ message: String) -> ImageTransformError {
        ImageTransformError(transformErrorKind, message)
    }
}

extension ImageCodingError.Kind {
    /// The plugin status code a Swift coder's error of this kind crosses the ABI as. The
    /// host's own isolation kinds (`.pluginCrashed`, `.pluginDisabled`, `.pluginUnavailable`) have no status of
    /// their own and cross as `INTERNAL_ERROR`.
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
        case .cancelled: WEBIMAGE_STATUS_CANCELLED
        case .timedOut: WEBIMAGE_STATUS_TIMED_OUT
        case .pluginCrashed, .pluginDisabled, .pluginUnavailable: WEBIMAGE_STATUS_INTERNAL_ERROR
        }
    }
}

extension ImageTransformError.Kind {
    /// The plugin status code a Swift transformer's error of this kind crosses the ABI as.
    public var status: webimage_status {
        switch self {
        case .invalidParameter: WEBIMAGE_STATUS_INVALID_ARGUMENT
        case .unknownTransformer: WEBIMAGE_STATUS_NOT_FOUND
        case .tooLarge: WEBIMAGE_STATUS_TOO_LARGE
        case .outOfMemory: WEBIMAGE_STATUS_OUT_OF_MEMORY
        case .internalError: WEBIMAGE_STATUS_INTERNAL_ERROR
        }
    }
}
