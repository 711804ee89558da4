/// What a cache holds and the limits it keeps. A limit of 0 means none.
public struct CacheTotals: Sendable, Equatable {
    /// Entries held.
    public var count: UInt64
    /// Memory caches: the sum of the entries' costs in bytes; disk caches: bytes stored (extended data and the
    /// backend's own framing included).
    public var bytes: UInt64
    /// The cost or size limit in bytes.
    public var byteLimit: UInt64
    /// The count limit.
    public var countLimit: UInt64
    /// The age limit in seconds.
    public var ageLimitSeconds: UInt64

    public init(
        count: UInt64, bytes: UInt64, byteLimit: UInt64 = 0, countLimit: UInt64 = 0, ageLimitSeconds: UInt64 = 0
    ) {
        self.count = count
        self.bytes = bytes
        self.byteLimit = byteLimit
        self.countLimit = countLimit
        self.ageLimitSeconds = ageLimitSeconds
    }
}
