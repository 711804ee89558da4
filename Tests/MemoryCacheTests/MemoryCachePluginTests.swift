import MemoryCache
import Synchronization
import Testing
import WebImageCore

/// A value that counts how many of its kind are alive, to check the plugin releases every handle once.
final class TrackedValue: Sendable {
    static let alive = Atomic<Int>(0)
    let number: Int

    init(_ number: Int) {
        self.number = number
        Self.alive.add(1, ordering: .relaxed)
    }

    deinit { Self.alive.subtract(1, ordering: .relaxed) }
}

/// The bundled memory cache through its C table and the host's adapter.
@Suite(.serialized) struct MemoryCachePluginTests {
    func make(_ configuration: CacheConfiguration) throws -> PluginMemoryCache {
        try MemoryCachePlugin.backend().make(configuration)
    }

    /// The numbers of the keys `k<n>` the cache holds (the lookups count as hits).
    func keys(_ cache: PluginMemoryCache, _ range: Range<Int>) -> [Int] {
        range.filter { cache.value(forKey: "k\($0)") != nil }
    }

    @Test func valuesRoundTripWithTheirCosts() throws {
        let cache = try make(["max-cost": "1000"])
        try cache.setValue("first", forKey: "a", cost: 100)
        try cache.setValue(42, forKey: "b", cost: 200)
        #expect(cache.value(forKey: "a") as? String == "first")
        #expect(cache.value(forKey: "b") as? Int == 42)
        #expect(cache.value(forKey: "c") == nil)
        #expect(cache.totals == CacheTotals(count: 2, bytes: 300, byteLimit: 1000))
        try cache.setValue("second", forKey: "a", cost: 50)
        #expect(cache.value(forKey: "a") as? String == "second")
        #expect(cache.totals == CacheTotals(count: 2, bytes: 250, byteLimit: 1000))
        #expect(cache.removeValue(forKey: "a"))
        #expect(!cache.removeValue(forKey: "a"))
        #expect(cache.totals == CacheTotals(count: 1, bytes: 200, byteLimit: 1000))
    }

    @Test func lruEvictsTheLeastRecentlyUsedUnderTheCostLimit() throws {
        let cache = try make(["max-cost": "300"])
        for index in 0..<3 { try cache.setValue(index, forKey: "k\(index)", cost: 100) }
        _ = cache.value(forKey: "k0")
        try cache.setValue(3, forKey: "k3", cost: 100)
        #expect(keys(cache, 0..<4) == [0, 2, 3])
        #expect(cache.totals.bytes == 300)
    }

    @Test func theCountLimitHolds() throws {
        let cache = try make(["max-count": "2", "max-cost": "0"])
        for index in 0..<5 { try cache.setValue(index, forKey: "k\(index)", cost: 1) }
        #expect(keys(cache, 0..<5) == [3, 4])
        #expect(cache.totals == CacheTotals(count: 2, bytes: 2, countLimit: 2))
    }

    /// Three slots, k0...k2 stored, one hit on k0, then k3, k4, k5. LRU moved k0 to the front at
    /// its hit, so it is evicted third; CLOCK only marked it, and at the first eviction gave it a
    /// second round at the front, so it outlives k2 and k3.
    @Test func clockGivesAHitASecondChanceWhereLRUMovesItAtOnce() throws {
        for (policy, survivors) in [("lru", [3, 4, 5]), ("clock", [0, 4, 5])] {
            let cache = try make(["max-count": "3", "policy": policy])
            for index in 0..<3 { try cache.setValue(index, forKey: "k\(index)", cost: 1) }
            _ = cache.value(forKey: "k0")
            for index in 3..<6 { try cache.setValue(index, forKey: "k\(index)", cost: 1) }
            #expect(keys(cache, 0..<6) == survivors, "\(policy)")
        }
    }

    @Test func anEntryAboveTheEntryCostLimitIsRefused() throws {
        let cache = try make(["max-cost": "1000", "entry-cost-limit": "0.1"])
        try cache.setValue(1, forKey: "small", cost: 100)
        let error = try #require(throws: CacheError.self) { try cache.setValue(2, forKey: "big", cost: 101) }
        #expect(
            error == CacheError(.tooLarge, "an entry of 101 bytes is more than 0.1 of the cost limit of 1000 bytes"))
        #expect(cache.totals.count == 1)
    }

    @Test func trimmingAndRemovingAllReleaseEveryValueOnce() throws {
        let before = TrackedValue.alive.load(ordering: .relaxed)
        do {
            let cache = try make(["max-cost": "0"])
            for index in 0..<100 { try cache.setValue(TrackedValue(index), forKey: "k\(index)", cost: 10) }
            for index in 0..<10 { try cache.setValue(TrackedValue(index), forKey: "k\(index)", cost: 10) }
            #expect(TrackedValue.alive.load(ordering: .relaxed) == before + 100)
            cache.trim(toCost: 500)
            #expect(cache.totals.count == 50)
            cache.trim(toCount: 20)
            #expect(cache.totals == CacheTotals(count: 20, bytes: 200))
            #expect((cache.value(forKey: "k99") as? TrackedValue)?.number == 99)
            #expect(TrackedValue.alive.load(ordering: .relaxed) == before + 20)
            cache.removeAll()
            #expect(cache.totals == CacheTotals(count: 0, bytes: 0))
            #expect(TrackedValue.alive.load(ordering: .relaxed) == before)
            for index in 0..<5 { try cache.setValue(TrackedValue(index), forKey: "k\(index)", cost: 10) }
        }
        #expect(TrackedValue.alive.load(ordering: .relaxed) == before)
    }

    @Test func theDefaultCostLimitIsFifteenPercentOfAvailableMemoryAtMost768MiB() throws {
        let expected = min(MemoryCachePlugin.availableMemory / 100 * 15, 768 * 1024 * 1024)
        #expect(MemoryCachePlugin.defaultCostLimit == expected)
        #expect(try make([:]).totals.byteLimit == expected)
        #expect(MemoryCachePlugin.availableMemory > 0)
    }

    @Test func badOptionsAreClearErrors() throws {
        let cases: [(String, String, String)] = [
            ("size", "1", "unknown option 'size'"),
            ("max-cost", "lots", "max-cost: 'lots' is not a whole number (0 means no limit)"),
            ("policy", "fifo", "policy: 'fifo' is not lru or clock"),
            ("entry-cost-limit", "2", "entry-cost-limit: '2' is not a number from 0 to 1"),
        ]
        for (key, value, message) in cases {
            let error = try #require(throws: CacheError.self) { try make([key: value]) }
            #expect(error.kind == .invalidArgument)
            #expect(error.message.hasPrefix(message))
        }
    }

    @Test func concurrentUseKeepsTheTotalsExact() async throws {
        let cache = try make(["max-count": "64", "max-cost": "0"])
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for step in 0..<2000 {
                        let key = "k\((worker * 31 + step) % 100)"
                        if step % 3 == 0 {
                            try? cache.setValue(step, forKey: key, cost: 2)
                        } else {
                            _ = cache.value(forKey: key)
                        }
                    }
                }
            }
        }
        #expect(cache.totals.count == 64)
        #expect(cache.totals.bytes == 128)
    }
}
