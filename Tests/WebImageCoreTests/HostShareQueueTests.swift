import Testing

@testable import WebImageCore

/// Jobs of several hosts: the start order across hosts, a full host passed over, and the host
/// a URL counts against.
@Suite("HostShareQueue") struct HostShareQueueTests {
    /// a(h1, normal) b(h1, normal) c(h2, low) d(h1, high) e(h2, normal), sequences 1-5.
    private func fiveJobs(lastInFirstOut: Bool) -> HostShareQueue<String> {
        var queue = HostShareQueue<String>(lastInFirstOut: lastInFirstOut)
        for (sequence, (name, host, priority)) in [
            ("a", "h1", ImagePriority.normal), ("b", "h1", .normal), ("c", "h2", .low),
            ("d", "h1", .high), ("e", "h2", .normal),
        ].enumerated() {
            queue.append(name, sequence: UInt64(sequence + 1), priority: priority, host: host)
        }
        return queue
    }

    /// Takes every job whose host `hasRoom` accepts, in the order they start.
    private func drain(_ queue: inout HostShareQueue<String>, where hasRoom: (String) -> Bool = { _ in true })
        -> [String]
    {
        var order: [String] = []
        while let next = queue.takeNext(where: hasRoom) { order.append(next.element) }
        return order
    }

    @Test("across hosts: highest priority first, then the oldest (FIFO) or the newest (LIFO)")
    func startOrderAcrossHosts() {
        var fifo = fiveJobs(lastInFirstOut: false)
        #expect(fifo.count == 5 && fifo.priority(of: 4) == .high)
        #expect(drain(&fifo) == ["d", "a", "b", "e", "c"])
        #expect(fifo.isEmpty)
        var lifo = fiveJobs(lastInFirstOut: true)
        #expect(drain(&lifo) == ["d", "e", "b", "a", "c"])
    }

    @Test("a full host is passed over, its jobs keep their order; removal and priority changes follow the job")
    func fullHostPassedOver() {
        var queue = fiveJobs(lastInFirstOut: false)
        #expect(queue.hasNext(where: { $0 == "h2" }))
        #expect(!queue.hasNext(where: { $0 == "h3" }))
        #expect(drain(&queue, where: { $0 == "h2" }) == ["e", "c"])
        #expect(queue.count == 3)
        queue.setPriority(.high, of: 2)
        #expect(queue.remove(4) == "d")
        #expect(queue.remove(4) == nil)
        #expect(drain(&queue) == ["b", "a"])
    }

    @Test("a URL counts against its scheme, host and port, lowercased, without user information")
    func hostOfURL() {
        #expect(
            HostShareQueue<Void>.host(of: "HTTP://User:pw@Example.COM:8080/a/B.png?x#y") == "http://example.com:8080")
        #expect(HostShareQueue<Void>.host(of: "https://example.com") == "https://example.com")
        #expect(HostShareQueue<Void>.host(of: "https://[::1]:8443/x") == "https://[::1]:8443")
        #expect(HostShareQueue<Void>.host(of: "data:image/png;base64,AAEC") == "data:")
        #expect(HostShareQueue<Void>.host(of: "file:///tmp/a.png") == "file://")
        #expect(HostShareQueue<Void>.host(of: "no scheme") == "")
    }

    @Test(
        "the default share: all but a third of the places, at least 1",
        arguments: [(1, 1), (2, 1), (3, 2), (6, 4), (16, 11)])
    func defaultShare(total: Int, share: Int) {
        #expect(HostShareQueue<Void>.defaultShare(of: total) == share)
    }
}
