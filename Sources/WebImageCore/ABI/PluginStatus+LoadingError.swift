import CWebImagePlugin

extension PluginStatus {
    /// The ``ImageLoadingError/Kind`` a loader reports for this status: `CANCELLED`,
    /// `TIMED_OUT` and `TOO_LARGE` are their own kinds, `REFUSED` is `.destinationRefused`;
    /// `INVALID_ARGUMENT` and
    /// `UNSUPPORTED_OPERATION` (a scheme the loader does not serve) are `.invalidURL`; every
    /// other status (`TRUNCATED_DATA`, `CORRUPT_DATA`, `NOT_FOUND`, `IO_ERROR`, ...) is a
    /// `.networkError`.
    public var loadingErrorKind: ImageLoadingError.Kind {
        switch rawValue {
        case WEBIMAGE_STATUS_CANCELLED: .cancelled
        case WEBIMAGE_STATUS_TIMED_OUT: .timedOut
        case WEBIMAGE_STATUS_TOO_LARGE: .tooLarge
        case WEBIMAGE_STATUS_REFUSED: .destinationRefused
        case WEBIMAGE_STATUS_INVALID_ARGUMENT, WEBIMAGE_STATUS_UNSUPPORTED_OPERATION: .invalidURL
        default: .networkError
        }
    }

    /// The loading error for this status with `message` and the loader's own code.
    public func loadingError(_ message: String, nativeCode: Int32 = 0) -> ImageLoadingError {
        ImageLoadingError(loadingErrorKind, message, nativeCode: nativeCode)
    }
}
