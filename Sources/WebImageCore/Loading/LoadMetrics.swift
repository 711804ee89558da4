/// Timings and sizes of one transfer.
public struct LoadMetrics: Sendable, Equatable {
    /// The protocol version, for example `"1.1"` or `"2"`; nil when not HTTP.
    public var httpVersion: String?
    /// From the start of the transfer to the end of each phase (zero when it did not happen).
    public var dns: Duration = .zero
    public var connect: Duration = .zero
    public var tls: Duration = .zero
    public var firstByte: Duration = .zero
    public var total: Duration = .zero
    /// Body bytes received (after content decoding).
    public var bytesReceived: UInt64 = 0
    public var redirectCount: Int = 0

    public init(httpVersion: String? = nil) {
        self.httpVersion = httpVersion
    }
}
