/// Why an ``ImageManager`` request failed. `kind` is for code, `message` for people; the
/// stage's own error is kept in ``loadingError``, ``codingError`` or ``transformError``.
public struct ImageManagerError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The URL is nil, empty or cannot be parsed.
        case invalidURL = "invalid URL"
        /// No loader serves the URL's scheme.
        case unsupportedURL = "unsupported URL"
        /// The URL is in the failed-URL list (an earlier download failed for a reason that repeats).
        case blockedURL = "blocked URL"
        /// ``ImageManagerOptions/fromCacheOnly`` and the image is not cached (or the cache key filter gave no key).
        case notInCache = "not in cache"
        /// The download failed (``loadingError`` says how).
        case loadFailed = "load failed"
        /// The bytes are not an image a coder decodes (``codingError`` says why); they are not cached.
        case decodeFailed = "decode failed"
        /// A transformer failed (``transformError``).
        case transformFailed = "transform failed"
        /// The request was cancelled (``ImageOperation/cancel()``, task cancellation, ``ImageManager/cancelAll()``).
        case cancelled
        /// The request's own time limit (``ImageContext/timeout``) passed.
        case timedOut = "timed out"
        /// An option name is unknown.
        case invalidOption = "invalid option"
    }

    public let kind: Kind
    public let message: String
    public var loadingError: ImageLoadingError?
    public var codingError: ImageCodingError?
    public var transformError: ImageTransformError?

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }

    static let cancelled = ImageManagerError(.cancelled, "cancelled")

    static func load(_ error: ImageLoadingError, url: String) -> ImageManagerError {
        if error.kind == .cancelled { return .cancelled }
        var wrapped = ImageManagerError(.loadFailed, "\(URLText.abbreviated(url)): \(error.description)")
        wrapped.loadingError = error
        return wrapped
    }

    static func decode(_ error: ImageCodingError, url: String) -> ImageManagerError {
        var wrapped = ImageManagerError(.decodeFailed, "\(URLText.abbreviated(url)): \(error.message)")
        wrapped.codingError = error
        return wrapped
    }

    static func transform(_ error: ImageTransformError, url: String) -> ImageManagerError {
        var wrapped = ImageManagerError(.transformFailed, "\(URLText.abbreviated(url)): \(error.message)")
        wrapped.transformError = error
        return wrapped
    }
}
