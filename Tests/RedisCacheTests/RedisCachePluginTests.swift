import CWebImagePlugin
import Foundation
import RedisCache
import Testing
import WebImageCore
import WebImageTestSupport

/// The redis plugin against a real `redis-server` on 127.0.0.1.
@Suite(.serialized, .ownThread) struct RedisCachePluginTests {
    /// The redis cache on `server`. Commands time out after 5 s unless `options` says otherwise: the
    /// plugin's default 50 ms is a production limit, and these tests are not about it (a loaded
    /// test machine can take longer than that for a SET that succeeds).
    func open(_ server: RedisServer, _ options: [String: String] = [:]) throws -> PluginDiskCache {
        var configuration: CacheConfiguration = ["url": server.url, "timeout-ms": "5000"]
        for (key, value) in options.sorted(by: { $0.key < $1.key }) { configuration[key] = value }
        return try RedisCachePlugin.backend().open(configuration)
    }

    /// Milliseconds `body` takes.
    func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    @Test func entriesRoundTripWithExtendedDataInOneValue() throws {
        let server = try RedisServer()
        let cache = try open(server, ["namespace": "images"])
        let data = Data((0..<100_000).map { UInt8($0 % 253) })
        try cache.store(data, extendedData: Data("etag: \"x\"".utf8), forKey: "http://h/a.png")
        #expect(
            try cache.entry(forKey: "http://h/a.png")
                == DiskCacheEntry(data: data, extendedData: Data("etag: \"x\"".utf8)))
        try cache.store(Data([1]), extendedData: nil, forKey: "b")
        #expect(try cache.entry(forKey: "b") == DiskCacheEntry(data: Data([1]), extendedData: nil))
        #expect(try cache.entry(forKey: "missing") == nil)
        #expect(try cache.contains("b"))
        #expect(try !cache.contains("missing"))
        #expect(
            try cache.totals()
                == CacheTotals(count: 2, bytes: UInt64(32 + 9 + 100_000 + 32 + 1), ageLimitSeconds: 604_800))
        #expect(try cache.items().map(\.name).sorted() == ["b", "http://h/a.png"])
        #expect(cache.path(forKey: "b") == nil)
        try cache.remove("b")
        #expect(try cache.entry(forKey: "b") == nil)
    }

    @Test func everyEntryExpiresAndTheKeyCarriesTheNamespace() throws {
        let server = try RedisServer()
        let cache = try open(server, ["namespace": "ns", "max-age": "100"])
        try cache.store(Data([1, 2]), extendedData: nil, forKey: "k")
        let raw = try open(server, ["namespace": "other"])
        #expect(try raw.entry(forKey: "k") == nil)
        let item = try #require(try cache.items().first)
        #expect(item.name == "k")
        #expect(abs(Int(item.modificationTime) - Int(Date().timeIntervalSince1970)) <= 2)
        let ttl = try server.command(["TTL", "ns:k"])
        #expect(ttl == ":100" || ttl == ":99")
    }

    @Test func anEntryIsWrittenWithItsExpiryInOneCommand() throws {
        let server = try RedisServer()
        let cache = try open(server, ["namespace": "ns", "max-age": "100"])
        #expect(try server.command(["CONFIG", "RESETSTAT"]) == "OK")
        try cache.store(Data([1, 2]), extendedData: nil, forKey: "k")
        // One SET with EX, no EXPIRE after it: a writer that dies between the two never leaves an entry without expiry.
        let calls = try server.command(["INFO", "commandstats"]).split(whereSeparator: \.isNewline)
            .filter { $0.hasPrefix("cmdstat_") && !$0.hasPrefix("cmdstat_config") && !$0.hasPrefix("cmdstat_info") }
            .map { $0.prefix { $0 != "," } }
        #expect(calls == ["cmdstat_set:calls=1"])
        let ttl = try server.command(["TTL", "ns:k"])
        #expect(ttl == ":100" || ttl == ":99")
    }

    @Test func aLeaseIsTakenOnceUntilItsHolderReleasesItOrItsTimeRunsOut() throws {
        let server = try RedisServer()
        let first = try open(server, ["namespace": "ns"])
        let second = try open(server, ["namespace": "ns"])
        #expect(first.takesLeases)
        #expect(try first.claim("k", for: .seconds(100)))
        #expect(try !second.claim("k", for: .seconds(100)))
        #expect(try !first.claim("k", for: .seconds(100)))
        // One key outside the namespace's entries, with its expiry set in the same command.
        #expect(try server.command(["KEYS", "*"]) == "1) \"lease:ns:k\"")
        let ttl = Int(try server.command(["PTTL", "lease:ns:k"]).dropFirst()) ?? 0
        #expect(ttl > 90_000 && ttl <= 100_000)
        #expect(try first.entry(forKey: "k") == nil)
        #expect(try first.totals().count == 0)
        // Only the holder ends it.
        try second.release("k")
        #expect(try !second.claim("k", for: .seconds(100)))
        try first.release("k")
        #expect(try second.claim("k", for: .milliseconds(1)))
        // A lease whose time ran out is free for the next claim.
        let deadline = ContinuousClock.now + .seconds(10)
        var taken = false
        while !taken && ContinuousClock.now < deadline {
            taken = try first.claim("k", for: .seconds(100))
            if !taken { usleep(2_000) }
        }
        #expect(taken)
        #expect(try server.command(["GET", "lease:ns:k"]) != "(nil)")
    }

    @Test func onlyTheHolderRenewsALease() throws {
        let server = try RedisServer()
        let first = try open(server, ["namespace": "ns"])
        let second = try open(server, ["namespace": "ns"])
        #expect(first.renewsLeases)
        #expect(try first.claim("k", for: .seconds(3)))
        #expect(try first.renew("k", for: .seconds(100)))
        let ttl = Int(try server.command(["PTTL", "lease:ns:k"]).dropFirst()) ?? 0
        #expect(ttl > 90_000 && ttl <= 100_000)
        // Another instance neither renews nor shortens it.
        #expect(try !second.renew("k", for: .seconds(1)))
        #expect((Int(try server.command(["PTTL", "lease:ns:k"]).dropFirst()) ?? 0) > 90_000)
        // A renewal after the lease ended brings nothing back.
        try first.release("k")
        #expect(try !first.renew("k", for: .seconds(100)))
        #expect(try server.command(["EXISTS", "lease:ns:k"]) == ":0")
        #expect(first.failureCount == 0 && second.failureCount == 0)
    }

    @Test func aTableFromBeforeRenewalsTakesLeasesButRenewsNone() throws {
        // The redis table as a plugin built before `renew`: its struct_size ends after `release`.
        let table = UnsafeMutablePointer<webimage_disk_cache>.allocate(capacity: 1)
        defer { table.deallocate() }
        table.initialize(to: RedisCachePlugin.table(host: HostServices.host).pointee)
        table.pointee.struct_size = UInt32(MemoryLayout<webimage_disk_cache>.offset(of: \.renew)!)
        let server = try RedisServer()
        let cache = try PluginDiskCacheBackend(table: table, pluginName: "redis").open(["url": server.url])
        #expect(cache.takesLeases && !cache.renewsLeases)
        #expect(try cache.claim("k", for: .seconds(1)))
        #expect(throws: CacheError(.unsupportedOperation, "redis: this cache does not renew leases")) {
            try cache.renew("k", for: .seconds(1))
        }
    }

    @Test func aTableFromBeforeLeasesTakesNone() throws {
        // The redis table as a plugin built before `claim` and `release` declares it: its
        // struct_size ends before them, so the host reads them as NULL.
        let table = UnsafeMutablePointer<webimage_disk_cache>.allocate(capacity: 1)
        defer { table.deallocate() }
        table.initialize(to: RedisCachePlugin.table(host: HostServices.host).pointee)
        table.pointee.struct_size = UInt32(MemoryLayout<webimage_disk_cache>.offset(of: \.claim)!)
        let server = try RedisServer()
        do {
            let cache = try PluginDiskCacheBackend(table: table, pluginName: "redis").open(["url": server.url])
            #expect(!cache.takesLeases)
            #expect(throws: CacheError(.unsupportedOperation, "redis: this cache takes no leases")) {
                try cache.claim("k", for: .seconds(1))
            }
            #expect(throws: CacheError(.unsupportedOperation, "redis: this cache takes no leases")) {
                try cache.release("k")
            }
            #expect(cache.failureCount == 0)
        }
        #expect(try server.command(["DBSIZE"]) == ":0")
    }

    @Test func valuesAboveTheLimitAreNotStored() throws {
        let server = try RedisServer()
        let cache = try open(server)
        let error = try #require(throws: CacheError.self) {
            try cache.store(Data(count: 1024 * 1024), extendedData: nil, forKey: "big")
        }
        #expect(error.kind == .tooLarge)
        #expect(error.message == "an entry of 1048608 bytes is larger than max-value-size (1048576 bytes); not stored")
        #expect(try !cache.contains("big"))
        try cache.store(Data(count: 1024 * 1024 - 32), extendedData: nil, forKey: "fits")
        #expect(try cache.contains("fits"))
    }

    @Test func removeAllRemovesOnlyItsNamespace() throws {
        let server = try RedisServer()
        let first = try open(server, ["namespace": "a*"])
        let second = try open(server, ["namespace": "ab"])
        for index in 0..<1200 { try first.store(Data([1]), extendedData: nil, forKey: "k\(index)") }
        try second.store(Data([2]), extendedData: nil, forKey: "k0")
        try first.removeAll()
        #expect(try first.totals().count == 0)
        #expect(try second.entry(forKey: "k0")?.data == Data([2]))
    }

    @Test func aStoppedServerFailsEveryCallAsNotAnsweringAndTheCacheReconnects() throws {
        let server = try RedisServer()
        let cache = try open(server)
        try cache.store(Data([7]), extendedData: nil, forKey: "k")
        server.stop()
        let first = try #require(throws: CacheError.self) { try cache.entry(forKey: "k") }
        #expect(first.kind == .ioError)
        #expect(
            first.message
                == "redis cache 127.0.0.1:\(server.port) does not answer: GET failed: Server closed the connection")
        // No call waits while the server is down: 100 reads end at once (the bound only catches a hang).
        var failures = 0
        let elapsed = milliseconds {
            for _ in 0..<100 {
                do throws(CacheError) {
                    _ = try cache.entry(forKey: "k")
                } catch {
                    if error.kind == .ioError { failures += 1 }
                }
            }
        }
        #expect(failures == 100)
        #expect(elapsed < 1000 * HangBound.scale)
        let store = try #require(throws: CacheError.self) { try cache.store(Data([8]), extendedData: nil, forKey: "k") }
        #expect(store.kind == .ioError)
        #expect(store.message.hasPrefix("redis cache 127.0.0.1:\(server.port) does not answer: "))
        #expect(cache.failureCount == 102)
        #expect(cache.firstFailure == first)
        try server.start()
        // The backoff after the first failures is at most 5 s; the first read after it reconnects.
        let deadline = Date().addingTimeInterval(10)
        var stored = false
        while !stored && Date() < deadline {
            stored = (try? cache.store(Data([9]), extendedData: nil, forKey: "k")) != nil
            if !stored { usleep(50_000) }
        }
        #expect(stored)
        #expect(try cache.entry(forKey: "k")?.data == Data([9]))
    }

    @Test func anOutageIsLoggedOnceAndTheRecoveryOnce() throws {
        let table = RedisCachePlugin.table(host: CountingHost.host)
        defer { _ = RedisCachePlugin.table(host: HostServices.host) }
        let server = try RedisServer()
        let cache = try PluginDiskCacheBackend(table: table, pluginName: "redis").open(["url": server.url])
        try cache.store(Data([1]), extendedData: nil, forKey: "k")
        CountingHost.lines.withLock { $0.removeAll() }
        server.stop()
        let deadline = Date().addingTimeInterval(1)
        while Date() < deadline { _ = try? cache.entry(forKey: "k") }
        #expect(CountingHost.warnings.count == 1)
        #expect(CountingHost.warnings.first?.hasPrefix("redis cache 127.0.0.1:\(server.port): GET failed") == true)
        try server.start()
        // The restarted server is empty: the reconnection shows as the recovery line, after the backoff (at most 5 s).
        func infos() -> [String] {
            CountingHost.lines.withLock { $0.filter { $0.level == WEBIMAGE_LOG_INFO }.map(\.message) }
        }
        let retry = Date().addingTimeInterval(10)
        while infos().isEmpty && Date() < retry {
            _ = try? cache.entry(forKey: "k")
            usleep(20_000)
        }
        #expect(infos() == ["redis cache 127.0.0.1:\(server.port): answering again"])
        #expect(CountingHost.warnings.count == 1)
    }

    @Test func aFrozenServerTimesOutAfterTheCommandTimeout() throws {
        let server = try RedisServer()
        // Stored with a 5 s timeout: a slow machine (a ThreadSanitizer build) may take more than
        // 50 ms for a SET while the server still answers.
        try open(server).store(Data([7]), extendedData: nil, forKey: "k")
        let cache = try open(server, ["timeout-ms": "50"])
        server.pause()
        defer { server.resume() }
        let expected = CacheError(
            .timedOut,
            "redis cache 127.0.0.1:\(server.port) does not answer: GET got no answer within 50 ms")
        // The first read waits for the 50 ms timeout, the second fails at once (the bound only catches a hang).
        let elapsed = milliseconds {
            for _ in 0..<2 { #expect(throws: expected) { try cache.entry(forKey: "k") } }
        }
        #expect(elapsed < 1000 * HangBound.scale)
        #expect(cache.failureCount == 2)
    }

    /// A stored entry damaged with raw Redis commands (`KEY` stands for its Redis key), and the
    /// reason a read gives for it.
    struct Damage: Sendable, CustomTestStringConvertible {
        let name: String
        let commands: [[String]]
        let reason: String
        var testDescription: String { name }

        /// XORs the value's byte at `offset` (from 0) with `mask`, through a Lua script.
        static func flip(_ name: String, offset: Int, mask: Int = 1, reason: String) -> Damage {
            let script = """
                local v = redis.call('GET', KEYS[1]); local i = tonumber(ARGV[1]) + 1
                return redis.call('SET', KEYS[1], v:sub(1, i - 1) .. string.char(bit.bxor(v:byte(i), tonumber(ARGV[2]))) .. v:sub(i + 1))
                """
            return Damage(
                name: name, commands: [["EVAL", script, "1", "KEY", String(offset), String(mask)]], reason: reason)
        }

        /// Keeps the value's first `length` bytes.
        static func prefix(_ name: String, length: Int, reason: String) -> Damage {
            let script = "return redis.call('SET', KEYS[1], string.sub(redis.call('GET', KEYS[1]), 1, \(length)))"
            return Damage(name: name, commands: [["EVAL", script, "1", "KEY"]], reason: reason)
        }
    }

    /// The value stored is a 32-byte header, 9 bytes of extended data, 1,000 bytes.
    static let damages: [Damage] = [
        .prefix("a prefix of the value", length: 500, reason: "length does not match the header"),
        .prefix("a prefix shorter than the header", length: 20, reason: "shorter than its header"),
        .flip("a bit flipped in the bytes", offset: 600, reason: "checksum mismatch"),
        .flip("a bit flipped in the extended data", offset: 33, reason: "checksum mismatch"),
        .flip("a bit flipped in the checksum", offset: 30, reason: "checksum mismatch"),
        .flip("a flag set in the header", offset: 5, reason: "unknown header version or flags"),
        Damage(
            name: "an absurd length in the header",
            commands: [
                ["EVAL", "return redis.call('SETRANGE', KEYS[1], 16, string.rep(string.char(255), 8))", "1", "KEY"]
            ],
            reason: "length does not match the header"),
        Damage(
            name: "garbage", commands: [["SET", "KEY", "garbage, not an entry of the cache"]], reason: "no entry header"
        ),
        Damage(
            name: "a list at the key", commands: [["DEL", "KEY"], ["LPUSH", "KEY", "a", "b"]],
            reason: "the key holds a Redis list, not a string"),
        Damage(
            name: "a hash at the key", commands: [["DEL", "KEY"], ["HSET", "KEY", "field", "value"]],
            reason: "the key holds a Redis hash, not a string"),
        Damage(
            name: "an entry of the unversioned format of earlier releases",
            commands: [
                [
                    "EVAL", "return redis.call('SET', KEYS[1], 'WIR1' .. string.rep(string.char(0), 4) .. 'old')", "1",
                    "KEY",
                ]
            ],
            reason: "an entry of the unversioned format WIR1, which has no checksum"),
    ]

    @Test(arguments: damages) func aDamagedEntryIsAMissWithItsReasonAndIsRemoved(_ damage: Damage) throws {
        let table = RedisCachePlugin.table(host: CountingHost.host)
        defer { _ = RedisCachePlugin.table(host: HostServices.host) }
        let server = try RedisServer()
        let cache = try PluginDiskCacheBackend(table: table, pluginName: "redis")
            .open(["url": server.url, "timeout-ms": "5000", "namespace": "ns"])
        let key = "http://h/a.png"
        let data = Data((0..<1000).map { UInt8($0 % 251) })
        try cache.store(data, extendedData: Data("etag: \"x\"".utf8), forKey: key)
        for command in damage.commands { _ = try server.command(command.map { $0 == "KEY" ? "ns:" + key : $0 }) }
        CountingHost.lines.withLock { $0.removeAll() }
        #expect(try cache.lookup(key) == .missing(reason: "corrupt entry removed: \(damage.reason)"))
        #expect(try server.command(["EXISTS", "ns:" + key]) == ":0")
        #expect(
            CountingHost.warnings == ["redis cache 127.0.0.1:\(server.port): removed entry ns:\(key): \(damage.reason)"]
        )
        #expect(try cache.lookup(key) == .missing(reason: "not in the cache"))
        #expect(cache.failureCount == 0)
        try cache.store(data, extendedData: nil, forKey: key)
        #expect(try cache.entry(forKey: key) == DiskCacheEntry(data: data, extendedData: nil))
    }

    @Test func anEntryOfANewerFormatIsAMissLeftInPlace() throws {
        let server = try RedisServer()
        let cache = try open(server)
        try cache.store(Data([1, 2, 3]), extendedData: nil, forKey: "k")
        let damage = Damage.flip("version 2", offset: 4, mask: 3, reason: "")
        _ = try server.command(damage.commands[0].map { $0 == "KEY" ? "default:k" : $0 })
        #expect(try cache.lookup("k") == .missing(reason: "an entry of a newer format (version 2); left in place"))
        #expect(try server.command(["EXISTS", "default:k"]) == ":1")
    }

    @Test func badOptionsAreClearErrors() throws {
        let cases: [(String, String, String)] = [
            ("url", "http://h", "url: 'http://h' is not redis://HOST:PORT[/DB]"),
            ("url", "redis://h:99999", "url: 'redis://h:99999' has a bad port"),
            ("timeout-ms", "0", "timeout-ms: '0' is not a number of milliseconds from 1 to 600000"),
            ("max-value-size", "1MB", "max-value-size: '1MB' is not a whole number (0 means no limit)"),
            ("directory", "/tmp", "unknown option 'directory'"),
        ]
        for (key, value, message) in cases {
            let error = try #require(throws: CacheError.self) { try RedisCachePlugin.backend().open([key: value]) }
            #expect(error.kind == .invalidArgument)
            #expect(error.message.hasPrefix(message))
        }
    }
}

/// An image cache whose disk layer is the redis plugin.
@Suite(.ownThread) struct RedisImageCacheTests {
    @Test func imagesRoundTripThroughRedis() async throws {
        let server = try RedisServer()
        var configuration = ImageCacheConfiguration()
        configuration.diskPlugin = "redis"
        configuration.extraDiskOptions = ["url": server.url, "timeout-ms": "5000"]
        let disk = try RedisCachePlugin.backend().open(configuration.diskOptions)
        let cache = ImageCache(memory: nil, disk: disk, coders: CodersManager(), configuration: configuration)
        try await cache.store(nil, data: Data("bytes".utf8), forKey: "http://h/a.png")
        #expect(try await cache.contains("http://h/a.png") == .disk)
        #expect(try disk.entry(forKey: "http://h/a.png")?.data == Data("bytes".utf8))
        #expect(try await cache.diskTotals().count == 1)
        try await cache.clearDisk()
        #expect(try await cache.contains("http://h/a.png") == .none)
    }
}
