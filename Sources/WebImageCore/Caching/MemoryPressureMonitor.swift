import FoundationEssentials
import Synchronization

/// A Linux stand-in for iOS's memory warning (opt-in): polls the memory pressure (PSI) and
/// trims a memory cache when it is high. When `some avg10` reaches ``threshold`` the cache is
/// trimmed to ``trimRatio`` of its cost; when `full avg10` does, it is emptied.
public final class MemoryPressureMonitor: Sendable {
    public let cache: any MemoryCache
    /// The PSI file read (``MemoryPressure/sourcePath()`` by default).
    public let path: String
    /// Percent of time stalled (avg10) that counts as pressure; default 10.
    public let threshold: Double
    /// The fraction of the cost kept by a trim; default 0.5.
    public let trimRatio: Double
    /// Time between readings; default 1 s.
    public let interval: Duration
    private let task = TrackedMutex<Task<Void, Never>?>(nil)
    private let trims = Atomic<Int>(0)

    /// - Throws: ``CacheError`` `.unsupportedOperation` when the kernel has no PSI and no `path` is given.
    public init(
        cache: any MemoryCache, path: String? = nil, threshold: Double = 10, trimRatio: Double = 0.5,
        interval: Duration = .seconds(1)
    ) throws(CacheError) {
        guard let path = path ?? MemoryPressure.sourcePath() else {
            throw CacheError(.unsupportedOperation, "this kernel reports no memory pressure (no /proc/pressure/memory)")
        }
        self.cache = cache
        self.path = path
        self.threshold = threshold
        self.trimRatio = trimRatio
        self.interval = interval
    }

    deinit { stop() }

    /// How many times the monitor trimmed the cache.
    public var trimCount: Int { trims.load(ordering: .relaxed) }

    /// Reads the pressure once and trims when it is high; returns the reading (nil when unreadable).
    @discardableResult
    public func check() -> MemoryPressure? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let pressure = MemoryPressure(psi: text)
        else { return nil }
        if pressure.fullAverage10 >= threshold {
            cache.removeAll()
            trims.add(1, ordering: .relaxed)
        } else if pressure.someAverage10 >= threshold {
            cache.trim(toCost: UInt64(Double(cache.totals.bytes) * trimRatio))
            trims.add(1, ordering: .relaxed)
        }
        return pressure
    }

    /// Starts polling every ``interval`` until ``stop()``; calling it again does nothing.
    public func start() {
        task.withLock { task in
            guard task == nil else { return }
            task = Task.detached { [weak self, interval] in
                while !Task.isCancelled {
                    // Only a weak reference across the sleep: a released monitor ends the loop.
                    guard let monitor = self else { return }
                    monitor.check()
                    try? await Task.sleep(for: interval)
                }
            }
        }
    }

    public func stop() {
        task.withLock { task in
            task?.cancel()
            task = nil
        }
    }
}
