/// One download asked of an ``ImageDownloader``.
public struct DownloadRequest: Sendable, Equatable {
    /// The order among queued downloads: higher first, then the downloader's execution order.
    /// The pipeline's one priority type, under the name this type had before it.
    public typealias Priority = ImagePriority

    /// Validators of a stored copy; when set, the request is conditional and a 304 answer
    /// is the ``ImageLoadingError/Kind/notModified`` error.
    public struct Validators: Sendable, Hashable {
        /// Sent as `If-None-Match`.
        public var etag: String?
        /// Sent as `If-Modified-Since` (an HTTP date, as the server sent it).
        public var lastModified: String?

        public init(etag: String? = nil, lastModified: String? = nil) {
            self.etag = etag
            self.lastModified = lastModified
        }
    }

    public var url: String
    /// Default `.normal`; can be changed while queued with ``DownloadToken/setPriority(_:)``.
    public var priority: Priority = .normal
    /// Headers on top of the downloader's (a value replaces the downloader's field of the
    /// same name; an empty value removes it).
    public var headers: HTTPHeaders = [:]
    /// Default none.
    public var validators: Validators?
    /// Default none.
    public var credential: LoadRequest.Credential?
    /// Transfer options; default `.allowHTTP2`.
    public var options: LoadRequest.Options = [.allowHTTP2]

    public init(url: String, priority: Priority = .normal) {
        self.url = url
        self.priority = priority
    }

    /// Whether an identical request made meanwhile joins this one's transfer (``coalescingKey``);
    /// default true. The image manager turns it off: it joins identical downloads itself, one
    /// download work per ``ImageRequestKeys/Download``, so its transfers are joined in one place.
    var joinsIdenticalRequests = true

    /// Identical requests (same URL, headers, validators, credential and options) share one transfer.
    var coalescingKey: String {
        var key = url
        for field in headers { key += "\n\(field.name.lowercased()):\(field.value)" }
        key += "\n\(validators?.etag ?? "")\n\(validators?.lastModified ?? "")"
        key += "\n\(credential?.user ?? "")\n\(credential?.password ?? "")\n\(options.rawValue)"
        return key
    }
}
