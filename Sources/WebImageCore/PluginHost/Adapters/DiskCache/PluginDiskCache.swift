import CWebImagePlugin
import FoundationEssentials

/// One open cache of a disk cache plugin, as a ``DiskCache``. Closed when released. Calls
/// are serialised unless the plugin declares `WEBIMAGE_CACHE_THREAD_SAFE`.
///
/// It counts the calls that failed (``failureCount``, ``firstFailure``): callers such as the
/// image manager treat a failed read as a miss and drop a failed store, so these are how a
/// host sees a backend that stopped answering (a Redis server that is down fails every call
/// with `ioError`, or `timedOut` when it hangs).
public final class PluginDiskCache: DiskCache, @unchecked Sendable {
    // @unchecked: the plugin instance is used only through its table, which is thread-safe
    // or serialised by `serial`.
    public let backend: PluginDiskCacheBackend
    private let instance: OpaquePointer
    /// Held around every call when the plugin is not thread-safe.
    private let serial = TrackedMutex(())
    private let threadSafe: Bool
    /// The failed calls so far and the first of them.
    private let failures = TrackedMutex<(count: Int, first: CacheError?)>((0, nil))
    /// The table's fields its `struct_size` covers, those after it zero (NULL): the optional
    /// functions appended since the first tables (`claim`, `release`) are read from here.
    private let covered: webimage_disk_cache

    /// Bytes of the buffer a path is written into.
    static let pathCapacity = 4096

    init(backend: PluginDiskCacheBackend, instance: OpaquePointer) {
        self.backend = backend
        self.instance = instance
        threadSafe = backend.table.pointee.flags & WEBIMAGE_CACHE_THREAD_SAFE != 0
        covered = ABIStruct.read(backend.table)
    }

    deinit { backend.table.pointee.close?(instance) }

    private var table: webimage_disk_cache { backend.table.pointee }

    private func serialised<Result>(_ body: () -> Result) -> Result {
        if threadSafe { return body() }
        return serial.withLock { _ in body() }
    }

    /// Calls that failed since the cache was opened (every error but a miss; a path not given is not counted).
    public var failureCount: Int { failures.withLock { $0.count } }

    /// The first call that failed since the cache was opened; nil while none did.
    public var firstFailure: CacheError? { failures.withLock { $0.first } }

    /// Counts `error` and returns it, to be thrown.
    private func counted(_ error: CacheError) -> CacheError {
        failures.withLock { failures in
            failures.count += 1
            if failures.first == nil { failures.first = error }
        }
        return error
    }

    /// Runs one table function with an error buffer; throws (and counts) for any status but OK.
    private func call(_ operation: String, _ body: (UnsafeMutablePointer<webimage_error>) -> webimage_status)
        throws(CacheError)
    {
        let messages = ErrorMessageBuffer()
        let status = serialised { messages.withError(body) }
        guard status == WEBIMAGE_STATUS_OK else {
            throw counted(
                PluginStatus(status).cacheError(messages.message(or: "\(backend.pluginName): \(operation) failed")))
        }
    }

    public func entry(forKey key: String) throws(CacheError) -> DiskCacheEntry? {
        guard case .found(let entry) = try lookup(key) else { return nil }
        return entry
    }

    /// The entry of `key`, or the backend's reason for a miss: `not in the cache`, or what was
    /// wrong with an entry it removed (`corrupt entry removed: checksum mismatch`).
    /// - Throws: ``CacheError`` when the read fails (a server that does not answer: `ioError`, `timedOut`).
    public func lookup(_ key: String) throws(CacheError) -> DiskCacheLookup {
        var data = webimage_buffer(bytes: nil, size: 0)
        var extended = webimage_buffer(bytes: nil, size: 0)
        let messages = ErrorMessageBuffer()
        let status = serialised {
            withCacheKey(key) { characters, count in
                messages.withError { table.read(instance, characters, count, &data, &extended, $0) }
            }
        }
        if status == WEBIMAGE_STATUS_NOT_FOUND { return .missing(reason: messages.message(or: "not in the cache")) }
        guard status == WEBIMAGE_STATUS_OK else {
            throw counted(PluginStatus(status).cacheError(messages.message(or: "\(backend.pluginName): read failed")))
        }
        return .found(
            DiskCacheEntry(data: Self.adopt(data), extendedData: extended.bytes == nil ? nil : Self.adopt(extended)))
    }

    /// Host-allocated bytes as `Data` without a copy; freed with the host allocator.
    private static func adopt(_ buffer: webimage_buffer) -> Data {
        guard let bytes = buffer.bytes else { return Data() }
        return Data(
            bytesNoCopy: bytes, count: buffer.size,
            deallocator: .custom { pointer, _ in
                HostServices.deallocate(pointer)
            })
    }

    public func store(_ data: Data, extendedData: Data?, forKey key: String) throws(CacheError) {
        try write(data, extendedData: extendedData, forKey: key)
    }

    /// The array's bytes handed to the plugin as they are, without a copy.
    public func store(bytes: [UInt8], extendedData: Data?, forKey key: String) throws(CacheError) {
        try write(bytes, extendedData: extendedData, forKey: key)
    }

    /// Hands `payload`'s bytes to the plugin as they are, without a copy.
    private func write(_ payload: some ContiguousBytes, extendedData: Data?, forKey key: String) throws(CacheError) {
        try payload.withUnsafeBytes { bytes in
            Result { () throws(CacheError) in try write(bytes: bytes, extendedData: extendedData, forKey: key) }
        }.get()
    }

    private func write(bytes: UnsafeRawBufferPointer, extendedData: Data?, forKey key: String) throws(CacheError) {
        let extended = extendedData ?? Data()
        try call("write") { error in
            withCacheKey(key) { characters, count in
                extended.withUnsafeBytes { extendedBytes in
                    table.write(
                        instance, characters, count, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        bytes.count, extendedBytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        extendedBytes.count, error)
                }
            }
        }
    }

    public func contains(_ key: String) throws(CacheError) -> Bool {
        var found = false
        try call("contains") { error in
            withCacheKey(key) { table.contains(instance, $0, $1, &found, error) }
        }
        return found
    }

    public func remove(_ key: String) throws(CacheError) {
        try call("remove") { error in
            withCacheKey(key) { table.remove(instance, $0, $1, error) }
        }
    }

    public func removeAll() throws(CacheError) {
        try call("remove all") { table.remove_all(instance, $0) }
    }

    public func removeExpired() throws(CacheError) {
        try call("remove expired") { table.remove_expired(instance, $0) }
    }

    public func totals() throws(CacheError) -> CacheTotals {
        var totals = webimage_cache_totals()
        totals.struct_size = UInt32(MemoryLayout<webimage_cache_totals>.size)
        try call("totals") { table.totals(instance, &totals, $0) }
        return CacheTotals(
            count: totals.count, bytes: totals.bytes, byteLimit: totals.byte_limit, countLimit: totals.count_limit,
            ageLimitSeconds: totals.age_limit_seconds)
    }

    public func path(forKey key: String) -> String? {
        guard let pathFunction = table.path else { return nil }
        let messages = ErrorMessageBuffer()
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Self.pathCapacity) { buffer -> String? in
            let status = serialised {
                withCacheKey(key) { characters, count in
                    messages.withError {
                        pathFunction(instance, characters, count, buffer.baseAddress!, Self.pathCapacity, $0)
                    }
                }
            }
            return status == WEBIMAGE_STATUS_OK ? String(cString: buffer.baseAddress!) : nil
        }
    }

    /// Whether the backend takes leases (``claim(_:for:)``): its table has `claim` and
    /// `release` within its `struct_size` (the `redis` plugin has them, the `disk` plugin not).
    public var takesLeases: Bool { covered.claim != nil && covered.release != nil }

    /// Takes the lease of `key` for `duration` (rounded up to whole milliseconds, at least 1)
    /// when no one holds it, in one atomic step for every process sharing the backend: how
    /// identical work is done once across processes. A lease ends with ``release(_:)`` or when
    /// its time runs out (its holder died); it is not an entry.
    /// - Returns: true when this call took the lease, false when another holder has it.
    /// - Throws: ``CacheError`` `.unsupportedOperation` when the backend takes no leases
    ///   (``takesLeases``); the backend's error otherwise (counted, see ``failureCount``).
    public func claim(_ key: String, for duration: Duration) throws(CacheError) -> Bool {
        guard let claim = covered.claim, covered.release != nil else {
            throw CacheError(.unsupportedOperation, "\(backend.pluginName): this cache takes no leases")
        }
        let milliseconds = Self.leaseMilliseconds(duration)
        var claimed = false
        try call("claim") { error in
            withCacheKey(key) { claim(instance, $0, $1, milliseconds, &claimed, error) }
        }
        return claimed
    }

    /// Ends the lease of `key` when this cache still holds it; nothing when it does not (its
    /// time ran out and another holder took it).
    /// - Throws: ``CacheError`` `.unsupportedOperation` when the backend takes no leases; the
    ///   backend's error otherwise (counted).
    public func release(_ key: String) throws(CacheError) {
        guard let release = covered.release, covered.claim != nil else {
            throw CacheError(.unsupportedOperation, "\(backend.pluginName): this cache takes no leases")
        }
        try call("release") { error in
            withCacheKey(key) { release(instance, $0, $1, error) }
        }
    }

    /// Whether the backend renews leases (``renew(_:for:)``): its table has `renew` within its
    /// `struct_size`, besides `claim` and `release` (the `redis` plugin has it).
    public var renewsLeases: Bool { takesLeases && covered.renew != nil }

    /// Makes the lease of `key` end `duration` (rounded up to whole milliseconds, at least 1)
    /// from now when this cache still holds it: how work longer than a short lease keeps it.
    /// - Returns: true when it did, false when this cache no longer holds the lease (its time
    ///   ran out, and another holder may have taken it).
    /// - Throws: ``CacheError`` `.unsupportedOperation` when the backend does not renew leases
    ///   (``renewsLeases``); the backend's error otherwise (counted).
    public func renew(_ key: String, for duration: Duration) throws(CacheError) -> Bool {
        guard let renew = covered.renew, takesLeases else {
            throw CacheError(.unsupportedOperation, "\(backend.pluginName): this cache does not renew leases")
        }
        let milliseconds = Self.leaseMilliseconds(duration)
        var held = false
        try call("renew") { error in
            withCacheKey(key) { renew(instance, $0, $1, milliseconds, &held, error) }
        }
        return held
    }

    /// `duration` in whole milliseconds, rounded up, at least 1 (as `claim` and `renew` take it).
    static func leaseMilliseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(1, seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
    }

    public func items() throws(CacheError) -> [DiskCacheItem] {
        guard let list = table.list else {
            throw CacheError(.unsupportedOperation, "\(backend.pluginName): this cache cannot list its entries")
        }
        let collector = ItemCollector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        try call("list") { error in
            list(
                instance,
                { context, item in
                    let collector = Unmanaged<ItemCollector>.fromOpaque(context!).takeUnretainedValue()
                    let item = item.pointee
                    collector.items.append(
                        DiskCacheItem(
                            name: String(cString: item.name), size: item.size, accessTime: item.access_time,
                            modificationTime: item.modification_time, creationTime: item.creation_time,
                            key: ItemCollector.key(of: item)))
                    return true
                }, context, error)
        }
        return collector.items
    }

    /// Gathers the items one `list` call reports.
    private final class ItemCollector {
        var items: [DiskCacheItem] = []

        /// The item's key when the plugin's `struct_size` covers the field and it is set.
        static func key(of item: webimage_disk_cache_item) -> String? {
            let end = MemoryLayout<webimage_disk_cache_item>.offset(of: \.key_length)! + MemoryLayout<Int>.size
            guard Int(item.struct_size) >= end, let key = item.key else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: key, count: item.key_length), as: UTF8.self)
        }
    }
}
