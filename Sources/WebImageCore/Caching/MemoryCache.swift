/// Decoded images (or any values) with a cost in bytes, kept in memory: SDWebImage's
/// `SDMemoryCache` protocol. The bundled `memory` plugin conforms through
/// ``PluginMemoryCache``; a host app's own type can conform in-process.
public protocol MemoryCache: Sendable {
    /// The value stored for `key`, or nil.
    func value(forKey key: String) -> (any Sendable)?
    /// Stores `value` with `cost` bytes for `key`, replacing what was there, evicting others as the limits say.
    /// - Throws: ``CacheError`` `.tooLarge` when the cache refuses an entry this large.
    func setValue(_ value: any Sendable, forKey key: String, cost: UInt64) throws(CacheError)
    /// Removes `key`; true when it was there.
    @discardableResult func removeValue(forKey key: String) -> Bool
    func removeAll()
    /// Evicts entries until their total cost is at most `cost` bytes.
    func trim(toCost cost: UInt64)
    /// Evicts entries until at most `count` remain.
    func trim(toCount count: UInt64)
    var totals: CacheTotals { get }
}
