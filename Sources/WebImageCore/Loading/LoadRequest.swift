/// One request to an ``ImageLoader``: what a loader plugin's `webimage_load_request` carries.
public struct LoadRequest: Sendable, Equatable {
    /// The request method.
    public enum Method: Sendable, Equatable {
        case get
        case head
    }

    /// Switches of a request.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Accept TLS certificates that do not verify (self-signed, wrong host, expired).
        public static let allowInvalidCertificates = Options(rawValue: 1 << 0)
        /// Send and store cookies (shared by the loader's transfers).
        public static let sendCookies = Options(rawValue: 1 << 1)
        /// Negotiate HTTP/2 over TLS.
        public static let allowHTTP2 = Options(rawValue: 1 << 2)
    }

    /// A user name and password for basic or digest authentication.
    public struct Credential: Sendable, Equatable {
        public var user: String
        public var password: String
        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }
    }

    /// The absolute URL.
    public var url: String
    /// Default `.get`.
    public var method: Method = .get
    /// Sent as given.
    public var headers: HTTPHeaders = [:]
    /// Most time to set up a connection; default 10 seconds.
    public var connectTimeout: Duration = .seconds(10)
    /// Most time without receiving a byte once connected; default 15 seconds (whole seconds
    /// for the curl plugin).
    public var idleTimeout: Duration = .seconds(15)
    /// Default `.allowHTTP2`.
    public var options: Options = [.allowHTTP2]
    /// Default none.
    public var credential: Credential?
    /// Most body bytes after content decoding, 0 for no limit; default 0.
    public var maxBodySize: UInt64 = 0
    /// Byte offset to resume from (the loader sends `Range: bytes=<rangeStart>-`); default 0.
    public var rangeStart: UInt64 = 0
    /// Most connections open at once to one host (name and port), 0 for the plugin's default
    /// (6); default 0. The curl plugin applies the latest request's value to all its transfers.
    public var maxConnectionsPerHost: UInt32 = 0
    /// The least average speed in bytes per second over ``idleTimeout`` before the transfer
    /// fails timed out ("slower than 1024 B/s for 15 s"), 0 for the plugin's default (1: the
    /// idle timeout alone); default 0.
    public var minimumBytesPerSecond: UInt32 = 0
    /// Most time for the whole transfer, from `start` to the last byte, before it fails timed
    /// out ("transfer took longer than 60 s (--max-time)"); default nil: none.
    public var maxTransferTime: Duration?
    /// Where the request may go; default every host, no `file:` (see ``DestinationPolicy``).
    public var destinationPolicy = DestinationPolicy()

    public init(url: String) {
        self.url = url
    }
}
