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
            let reserved = try ListenAddress("127.0.0.1:0").reservingPort()
            #expect((10_000..<ephemeral.lowerBound).contains(reserved.port), "\(reserved.port)")
            #expect(reserved.host == "127.0.0.1")
        }
        #expect(try ListenAddress("127.0.0.1:8080").reservingPort().port == 8080)
    }
}
