import Testing

@testable import WebImageServer

@Suite("RecentResultKeys")
struct RecentResultKeysTests {
    @Test("a path is found under the Accept it was kept with only")
    func keyedByPathAndAccept() {
        let keys = RecentResultKeys()
        keys.keep(.init(key: "k1", isNegotiated: true), path: "/sig/rs:fit:9:9/plain/a", accept: "image/webp")
        keys.keep(.init(key: "k2", isNegotiated: false), path: "/sig/rs:fit:9:9/plain/a", accept: nil)
        #expect(keys.entry(path: "/sig/rs:fit:9:9/plain/a", accept: "image/webp")?.key == "k1")
        #expect(keys.entry(path: "/sig/rs:fit:9:9/plain/a", accept: "image/webp")?.isNegotiated == true)
        #expect(keys.entry(path: "/sig/rs:fit:9:9/plain/a", accept: nil)?.key == "k2")
        #expect(keys.entry(path: "/sig/rs:fit:9:9/plain/a", accept: "image/avif") == nil)
        #expect(keys.entry(path: "/other/rs:fit:9:9/plain/a", accept: "image/webp") == nil)
    }

    @Test("it holds at most its capacity and starts empty again when full")
    func bounded() {
        let keys = RecentResultKeys(capacity: 3)
        for index in 0..<3 { keys.keep(.init(key: "k\(index)", isNegotiated: false), path: "/\(index)", accept: nil) }
        #expect((0..<3).map { keys.entry(path: "/\($0)", accept: nil)?.key } == ["k0", "k1", "k2"])
        keys.keep(.init(key: "k3", isNegotiated: false), path: "/3", accept: nil)
        #expect((0..<4).map { keys.entry(path: "/\($0)", accept: nil)?.key } == [nil, nil, nil, "k3"])
    }
}
