import Foundation

/// The network of the source guard's tests: a client namespace, where the program under test
/// runs, joined by a veth pair (`c0` here, `h0` there) to a hosts namespace that holds one
/// address of every class the guard tells apart, all served by one ``RecordingHTTPServer``;
/// a second recording server listens on the client's own loopback. The client routes only to
/// the hosts namespace, so no packet can leave the two.
///
/// The hosts' addresses: 198.51.100.1 (a documentation range, standing for "public"; the
/// client is 198.51.100.2), private 10.201.0.1, 172.16.77.1 and 192.168.77.1, CGNAT
/// 100.64.77.1, link-local 169.254.77.1 and 169.254.169.254 (where clouds put their metadata
/// service), unique local fd00:77::1 (the client fd00:77::2) and link-local fe80::77:1 (the
/// client fe80::77:2, reached as `[fe80::77:1%25c0]`).
open class GuardNetwork {
    public let client: NetworkNamespace
    public let hosts: NetworkNamespace
    /// The hosts' server, on two ports (a redirect to the second needs a new name lookup).
    public let remote: RecordingHTTPServer
    /// The server on the client's loopback, on two ports.
    public let local: RecordingHTTPServer

    /// The namespaces and servers, both answering 200 with `body`.
    /// - Throws: ``HarnessError`` when a namespace cannot be made (not root, no iproute2).
    public init(body: [UInt8] = RecordingHTTPServer.body) throws {
        client = try NetworkNamespace()
        hosts = try NetworkNamespace()
        try client.link("c0", to: hosts, as: "h0")
        for address in ["198.51.100.2/24", "fd00:77::2/64", "fe80::77:2/64"] {
            try client.addAddress(address, to: "c0")
        }
        let hostAddresses = [
            "198.51.100.1/24", "10.201.0.1/32", "172.16.77.1/32", "192.168.77.1/32", "100.64.77.1/32",
            "169.254.77.1/32", "169.254.169.254/32", "fd00:77::1/64", "fe80::77:1/64",
        ]
        for address in hostAddresses {
            try hosts.addAddress(address, to: "h0")
        }
        for prefix in [
            "10.201.0.0/16", "172.16.77.0/24", "192.168.77.0/24", "100.64.77.0/24", "169.254.77.0/24",
            "169.254.169.254/32",
        ] {
            try client.addRoute(prefix, via: "c0")
        }
        remote = try RecordingHTTPServer(in: hosts, portCount: 2, body: body)
        local = try RecordingHTTPServer(in: client, portCount: 2, body: body)
    }

    deinit {
        remote.stop()
        local.stop()
    }

    /// The hosts' first port.
    public var port: Int { remote.ports[0] }

    /// `http://host:port/path` on the hosts' first port.
    public func url(_ host: String, _ path: String = "/image") -> String { "http://\(host):\(port)\(path)" }

    /// A redirect from `host` (default the public host) to `target`.
    public func redirect(to target: String, from host: String = "198.51.100.1") -> String {
        url(host, "/redirect?to=" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
    }

    /// A name server on the public host, used by programs started in the client namespace
    /// from now on, answering `first` to the first lookup and `then` to every later one; stop
    /// it when done.
    public func nameServer(first: String, then: String) throws -> RebindingNameServer {
        let nameServer = try RebindingNameServer(in: hosts, on: "198.51.100.1", first: first, then: then)
        try client.useNameServer("198.51.100.1")
        return nameServer
    }

    /// A redirect from `rebind.test` on the first port to ``rebindingTarget``, which makes
    /// libcurl look the name up again (its cache is by name and port).
    public var rebindingRedirect: String { redirect(to: rebindingTarget, from: "rebind.test") }

    /// Where ``rebindingRedirect`` leads: `rebind.test` on the second port.
    public var rebindingTarget: String { "http://rebind.test:\(remote.ports[1])/image" }

    /// The proxy variables, emptied: a program run in the client reaches its hosts directly.
    public static let noProxy = Dictionary(
        uniqueKeysWithValues: ["http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"]
            .map { ($0, "") })
}
