/// Where a loader may send requests: the destination guard of a loader plugin
/// (`webimage_load_request.destination_flags`). A refused destination fails the load with
/// ``ImageLoadingError/Kind/destinationRefused`` before any request is sent. The default
/// refuses nothing but `file:` URLs.
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
    /// URL prefixes every source and every redirect target must fall under
    /// (`https://images.example.com/`, `https://*.example.com/thumbs/`); default empty: any URL.
    /// A prefix is an `http` or `https` URL without user, query or fragment, matched on the parsed
    /// URL, never as a string: the same scheme, host (case-insensitive; a `*` label stands for one
    /// or more labels, so `*.example.com` matches `a.b.example.com`, not `example.com`), port
    /// (the scheme's default when the prefix has none) and a path that starts with the prefix's
    /// (after dot segments are removed; a path with an encoded `.`, `/` or `\` matches only a
    /// prefix whose path is `/`). `https://example.com` matches neither
    /// `https://example.com.evil.net/` nor `https://example.com@evil.net/`. With prefixes, only
    /// `http` and `https` URLs load, and the curl plugin refuses a redirect to a URL outside them
    /// before it looks the target's name up or connects ("the redirect to URL is not under an
    /// allowed source prefix"); a malformed prefix fails every load with
    /// ``ImageLoadingError/Kind/invalidURL`` naming it.
    public var allowedURLPrefixes: [String] = []
    /// Networks never connected to, also without ``denyPrivateAddresses`` (an image server's own
    /// listen address, `127.0.0.1:8080`); default none. Checked like ``denyPrivateAddresses``, on
    /// the address connected to ("127.0.0.1 port 8080 is a denied address").
    public var deniedAddresses: [IPNetwork] = []
    /// Networks connected to even with ``denyPrivateAddresses`` (an origin on a private
    /// network, `10.1.2.0/24`); ``deniedAddresses`` win over them; default none.
    ///
    /// With ``denyPrivateAddresses``, ``allowedURLPrefixes`` or ``deniedAddresses`` the curl
    /// plugin uses no proxy (a proxy would be the only address it could check).
    public var allowedNetworks: [IPNetwork] = []

    public init(
        denyPrivateAddresses: Bool = false, allowFile: Bool = false, allowedURLPrefixes: [String] = [],
        deniedAddresses: [IPNetwork] = [], allowedNetworks: [IPNetwork] = []
    ) {
        self.denyPrivateAddresses = denyPrivateAddresses
        self.allowFile = allowFile
        self.allowedURLPrefixes = allowedURLPrefixes
        self.deniedAddresses = deniedAddresses
        self.allowedNetworks = allowedNetworks
    }
}
