/// The head of a loader's final response (after redirects).
public struct LoadResponse: Sendable, Equatable {
    /// The HTTP status; 200 for a `file:` or `data:` URL that was read.
    public var statusCode: Int
    public var headers: HTTPHeaders
    /// The protocol version, for example `"1.1"` or `"2"`; nil when not HTTP.
    public var httpVersion: String?
    /// The URL after redirects.
    public var url: String

    public init(statusCode: Int, headers: HTTPHeaders, httpVersion: String?, url: String) {
        self.statusCode = statusCode
        self.headers = headers
        self.httpVersion = httpVersion
        self.url = url
    }

    /// The `Content-Length` header as a number, when present and valid.
    public var expectedContentLength: UInt64? {
        headers["Content-Length"].flatMap { UInt64($0.trimmingWhitespace) }
    }

    /// The media type of `Content-Type` without parameters, lowercase; nil when absent.
    public var mimeType: String? {
        guard let value = headers["Content-Type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(type).trimmingWhitespace.lowercased()
    }
}

extension String {
    /// The text without the spaces and tabs at its start and end (HTTP's optional whitespace).
    package var trimmingWhitespace: String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
        while let last = view.last, last == " " || last == "\t" { view.removeLast() }
        return String(view)
    }
}
