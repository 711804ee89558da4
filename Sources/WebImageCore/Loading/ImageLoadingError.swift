/// Why a load failed.
public struct ImageLoadingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The URL is malformed, or its scheme is served by no loader.
        case invalidURL = "invalid URL"
        /// The status code is not acceptable (``statusCode`` and ``headers`` say what came).
        case badStatus = "bad status"
        /// The `Content-Type` is not acceptable.
        case badContentType = "bad content type"
        case cancelled
        /// No byte arrived within the idle timeout, or no connection within the connect timeout.
        case timedOut = "timed out"
        /// The body is larger than the limit.
        case tooLarge = "too large"
        /// A conditional request's answer was 304: the stored copy is current.
        case notModified = "not modified"
        /// The transfer failed (``nativeCode`` is the loader's code, libcurl's for the curl
        /// plugin); a body shorter than its Content-Length is one (libcurl code 18).
        case networkError = "network error"
        /// The request modifier returned no request.
        case requestModifierFailed = "request modifier failed"
        /// The decryptor could not turn the body into image bytes.
        case decryptionFailed = "decryption failed"
        /// The ``DestinationPolicy`` refused where the request would go (the message names the
        /// address and its class or denied port, the `file:` URL, or the URL or redirect target
        /// outside the allowed source prefixes); no request was sent.
        case destinationRefused = "destination refused"
        /// A request header's name or value cannot be sent (CR, LF or NUL in it, or a bad
        /// name); the message names the header.
        case invalidHeader = "invalid header"
    }

    public var kind: Kind
    public var message: String
    /// The response's status code, when a response arrived.
    public var statusCode: Int?
    /// The response's headers, when a response arrived.
    public var headers: HTTPHeaders?
    /// The loader's own error code (a CURLcode for the curl plugin); 0 when none.
    public var nativeCode: Int32

    public init(
        _ kind: Kind, _ message: String, statusCode: Int? = nil, headers: HTTPHeaders? = nil, nativeCode: Int32 = 0
    ) {
        self.kind = kind
        self.message = message
        self.statusCode = statusCode
        self.headers = headers
        self.nativeCode = nativeCode
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
