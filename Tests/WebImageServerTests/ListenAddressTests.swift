import Testing

@testable import WebImageServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite("ListenAddress")
struct ListenAddressTests {
    @Test("port 0 becomes a free port below the kernel's ephemeral range, which outgoing connections take theirs from")
    func reservedPortIsBelowTheEphemeralRange() throws {
        let ephemeral = try #require(ListenAddress.ephemeralPortRange())
        try #require(ephemeral.lowerBound > 10_100, "this machine's ephemeral range starts at \(ephemeral.lowerBound)")
        for _ in 0..<3 {
            let reserved = try ListenAddress("127.0.0.1:0").reservingPort().address
            #expect((10_000..<ephemeral.lowerBound).contains(reserved.port), "\(reserved.port)")
            #expect(reserved.host == "127.0.0.1")
        }
        let fixed = try ListenAddress("127.0.0.1:8080").reservingPort()
        #expect(fixed.address.port == 8080 && fixed.heldDescriptor == nil)
    }

    @Test("a reserved port stays taken for others looking for one until released, and the server can listen on it")
    func reservedPortIsHeld() throws {
        let reservation = try ListenAddress("127.0.0.1:0").reservingPort()
        let port = reservation.address.port
        let held = try #require(reservation.heldDescriptor)
        // Not inherited by the plugin workers the server starts while it holds the port.
        #expect(fcntl(held, F_GETFD) & FD_CLOEXEC != 0)
        // Another server looking for a free port the same way: taken while held.
        #expect(!Self.bindsExclusively(port))
        // The server's own listening socket (it reuses the address, as SwiftNIO's does) binds
        // and listens beside the reservation, which never listens.
        let server = try #require(Self.listening(on: port))
        defer { close(server) }
        reservation.release()
        #expect(reservation.heldDescriptor == nil)
        reservation.release()
        // Still taken: by the listening server now.
        #expect(!Self.bindsExclusively(port))
    }

    @Test("a released reservation leaves the port free")
    func releasedPortIsFree() throws {
        let reservation = try ListenAddress("127.0.0.1:0").reservingPort()
        let port = reservation.address.port
        reservation.release()
        #expect(Self.bindsExclusively(port))
    }

    /// True when a socket without SO_REUSEADDR binds 127.0.0.1:`port` (then closed).
    private static func bindsExclusively(_ port: Int) -> Bool {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A socket with SO_REUSEADDR listening on 127.0.0.1:`port`; nil when it cannot.
    private static func listening(on port: Int) -> Int32? {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var reuse: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard bound, listen(socketFD, 8) == 0 else {
            close(socketFD)
            return nil
        }
        return socketFD
    }

    private static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
