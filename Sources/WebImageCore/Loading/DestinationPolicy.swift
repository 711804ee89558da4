/// Where a loader may send requests: the destination guard of a loader plugin
/// (`webimage_load_request.destination_flags`). A refused destination fails the load with
/// ``ImageLoadingError/Kind/destinationRefused`` before any request is sent.
public struct DestinationPolicy: Sendable, Equatable {
    /// Refuse connections to loopback, private (RFC 1918, CGNAT 100.64/10), link-local,
    /// unique local (fc00::/7), multicast, unspecified and reserved addresses, also in
    /// IPv4-mapped or embedded IPv6 forms. The curl plugin checks the address it actually
    /// connects to, after name resolution, for the first request and every redirect, so a
    /// name whose answer changes between lookups cannot reach such an address; it then uses no
    /// proxy from the environment. Default false: every host is reachable (a server that
    /// fetches URLs others give it should turn this on).
    public var denyPrivateAddresses = false
    /// Serve `file:` URLs (regular files only; a FIFO, device or socket is refused at once).
    /// Default false: `file:` URLs are refused.
    public var allowFile = false

    public init(denyPrivateAddresses: Bool = false, allowFile: Bool = false) {
        self.denyPrivateAddresses = denyPrivateAddresses
        self.allowFile = allowFile
    }
}
