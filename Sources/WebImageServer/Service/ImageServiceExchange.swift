/// A request as ``ImageService`` reads it: what the HTTP layer passes on.
public struct ImageServiceRequest: Sendable {
    /// `GET` or `HEAD` (anything else is 405).
    public var method: String
    /// The request target as sent: the path, percent-encoding kept, and any query.
    public var target: String
    /// The `Accept` header; nil when absent.
    public var accept: String?
    /// The `If-None-Match` header; nil when absent.
    public var ifNoneMatch: String?

    public init(method: String = "GET", target: String, accept: String? = nil, ifNoneMatch: String? = nil) {
        self.method = method
        self.target = target
        self.accept = accept
        self.ifNoneMatch = ifNoneMatch
    }

    /// The path of a request target: what comes before its query (`/a/b` of `/a/b?c`).
    static func path(ofTarget target: String) -> String {
        guard let query = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target }
        return String(target[..<query])
    }
}

/// What ``ImageService`` answers: the HTTP layer writes it as it is.
public struct ImageServiceResponse: Sendable {
    public var status: Int
    /// Header names and values in the order they are sent (`Content-Length` aside, which the
    /// HTTP layer sets from the body, or from ``contentLength`` for HEAD and 304).
    public var headers: [(name: String, value: String)]
    /// Empty for HEAD and 304.
    public var body: [UInt8]
    /// The length of the body a GET gets; what `Content-Length` says.
    public var contentLength: Int
    /// Where the result came from (`memory`, `disk`, `miss`), for the access log; nil when no
    /// image was answered.
    public var tier: String?

    /// The value of header `name` (case-insensitive); nil when absent.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// An error answer: `message` on one line as plain text, cacheable for 10 seconds.
    static func error(_ status: Int, _ message: String, headers extra: [(name: String, value: String)] = [])
        -> ImageServiceResponse
    {
        let body = Array((message.replacing("\n", with: " ") + "\n").utf8)
        return ImageServiceResponse(
            status: status,
            headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "public, max-age=10")] + extra,
            body: body, contentLength: body.count, tier: nil)
    }
}
