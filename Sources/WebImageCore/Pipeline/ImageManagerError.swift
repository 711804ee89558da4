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
    /// What went wrong, without the URL (``url`` holds it).
    public let message: String
    /// The URL of the request that failed, as given; nil when the failure is about no URL
    /// (an unknown option). ``description`` names it, ``reason`` does not.
    public var url: String?
    public var loadingError: ImageLoadingError? {
        get { stageErrors?.value.loading }
        set { changeStageErrors { $0.loading = newValue } }
    }
    public var codingError: ImageCodingError? {
        get { stageErrors?.value.coding }
        set { changeStageErrors { $0.coding = newValue } }
    }
    public var transformError: ImageTransformError? {
        get { stageErrors?.value.transform }
        set { changeStageErrors { $0.transform = newValue } }
    }

    /// The stage's own errors, out of line: every `try await` of the pipeline keeps a slot for
    /// its error in the async frame, so the error is kept small (48 bytes, not 144). Nil when
    /// there are none.
    private var stageErrors: OutOfLine<StageErrors>?

    private struct StageErrors: Sendable {
        var loading: ImageLoadingError?
        var coding: ImageCodingError?
        var transform: ImageTransformError?
    }

    private mutating func changeStageErrors(_ change: (inout StageErrors) -> Void) {
        var errors = stageErrors?.value ?? StageErrors()
        change(&errors)
        stageErrors = OutOfLine(errors)
    }

    public init(_ kind: Kind, _ message: String, url: String? = nil) {
        self.kind = kind
        self.message = message
        self.url = url
    }

    /// `kind: URL: message` (the URL cut as ``URLText/abbreviated(_:limit:)`` does), or
    /// `kind: message` without a URL.
    public var description: String {
        guard let url else { return reason }
        return "\(kind.rawValue): \(URLText.abbreviated(url)): \(message)"
    }

    /// `kind: message`: the description without the URL, for a caller that names the URL
    /// itself (the CLI's `error: URL: reason` lines).
    public var reason: String { "\(kind.rawValue): \(message)" }

    static let cancelled = ImageManagerError(.cancelled, "cancelled")

    static func load(_ error: ImageLoadingError, url: String) -> ImageManagerError {
        if error.kind == .cancelled { return .cancelled }
        var wrapped = ImageManagerError(.loadFailed, error.description, url: url)
        wrapped.loadingError = error
        return wrapped
    }

    static func decode(_ error: ImageCodingError, url: String) -> ImageManagerError {
        var wrapped = ImageManagerError(.decodeFailed, error.message, url: url)
        wrapped.codingError = error
        return wrapped
    }

    static func transform(_ error: ImageTransformError, url: String) -> ImageManagerError {
        var wrapped = ImageManagerError(.transformFailed, error.message, url: url)
        wrapped.transformError = error
        return wrapped
    }
}
