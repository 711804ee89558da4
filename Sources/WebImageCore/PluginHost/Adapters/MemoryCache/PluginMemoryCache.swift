import CWebImagePlugin

/// One instance of a memory cache plugin, as a ``MemoryCache``. Destroyed (every value
/// released) when released. Calls are serialised unless the plugin declares
/// `WEBIMAGE_CACHE_THREAD_SAFE`.
public final class PluginMemoryCache: MemoryCache, @unchecked Sendable {
    // @unchecked: the plugin instance is used only through its table, which is thread-safe
    // or serialised by `serial`.
    public let backend: PluginMemoryCacheBackend
    private let instance: OpaquePointer
    private let table: webimage_memory_cache
    /// Held around every call when the plugin is not thread-safe.
    private let serial = TrackedMutex(())
    private let threadSafe: Bool

    init(backend: PluginMemoryCacheBackend, instance: OpaquePointer) {
        self.backend = backend
        self.instance = instance
        table = backend.table.pointee
        threadSafe = table.flags & WEBIMAGE_CACHE_THREAD_SAFE != 0
    }

    deinit { table.destroy?(instance) }

    @inline(__always)
    private func serialised<Result>(_ body: () -> Result) -> Result {
        if threadSafe { return body() }
        return serial.withLock { _ in body() }
    }

    public func value(forKey key: String) -> (any Sendable)? {
        let handle = serialised { withCacheKey(key) { table.get(instance, $0, $1) } }
        guard let handle else { return nil }
        return Unmanaged<MemoryCacheValueBox>.fromOpaque(handle).takeRetainedValue().value
    }

    public func setValue(_ value: any Sendable, forKey key: String, cost: UInt64) throws(CacheError) {
        let handle = Unmanaged.passRetained(MemoryCacheValueBox(value)).toOpaque()
        let messages = ErrorMessageBuffer()
        let status = serialised {
            withCacheKey(key) { characters, count in
                messages.withError { table.set(instance, characters, count, handle, cost, $0) }
            }
        }
        guard status == WEBIMAGE_STATUS_OK else {
            Unmanaged<MemoryCacheValueBox>.fromOpaque(handle).release()
            throw PluginStatus(status).cacheError(messages.message(or: "\(backend.pluginName): set failed"))
        }
    }

    @discardableResult public func removeValue(forKey key: String) -> Bool {
        serialised { withCacheKey(key) { table.remove(instance, $0, $1) } }
    }

    public func removeAll() { serialised { table.remove_all(instance) } }

    public func trim(toCost cost: UInt64) { serialised { table.trim_to_cost(instance, cost) } }

    public func trim(toCount count: UInt64) { serialised { table.trim_to_count(instance, count) } }

    public var totals: CacheTotals {
        var totals = webimage_cache_totals()
        totals.struct_size = UInt32(MemoryLayout<webimage_cache_totals>.size)
        serialised { table.totals(instance, &totals) }
        return CacheTotals(
            count: totals.count, bytes: totals.bytes, byteLimit: totals.byte_limit, countLimit: totals.count_limit,
            ageLimitSeconds: totals.age_limit_seconds)
    }
}
