import CWebImagePlugin

extension PluginStatus {
    /// The ``CacheError/Kind`` a cache reports for this status. `NOT_FOUND` is a miss, which
    /// caches answer with nil rather than an error; where one reaches here it is `.internalError`.
    public var cacheErrorKind: CacheError.Kind {
        switch rawValue {
        case WEBIMAGE_STATUS_INVALID_ARGUMENT, WEBIMAGE_STATUS_UNSUPPORTED_FORMAT: .invalidArgument
        case WEBIMAGE_STATUS_TOO_LARGE: .tooLarge
        case WEBIMAGE_STATUS_IO_ERROR, WEBIMAGE_STATUS_CORRUPT_DATA, WEBIMAGE_STATUS_TRUNCATED_DATA: .ioError
        case WEBIMAGE_STATUS_TIMED_OUT: .timedOut
        case WEBIMAGE_STATUS_OUT_OF_MEMORY: .outOfMemory
        case WEBIMAGE_STATUS_UNSUPPORTED_OPERATION: .unsupportedOperation
        case WEBIMAGE_STATUS_CANCELLED: .cancelled
        default: .internalError
        }
    }

    /// The cache error for this status with `message`.
    public func cacheError(_ message: String) -> CacheError {
        CacheError(cacheErrorKind, message)
    }
}
