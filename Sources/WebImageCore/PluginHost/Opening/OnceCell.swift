import FoundationEssentials

/// A value computed once, by the first caller, with no lock held while it is computed.
///
/// Concurrent callers that arrive while the value is being computed wait for it; the
/// computation itself runs outside the lock, so code it calls (a plugin's entry
/// function) can never block other work of the host or deadlock on the host's locks.
final class OnceCell<Value: Sendable>: @unchecked Sendable {
    // Invariant: `value` and `isComputing` are read and written only with `condition` locked.
    private let condition = ThreadLock()
    private var value: Value?
    private var isComputing = false

    /// The value, computed by `compute` on the first call; later and concurrent calls get
    /// the same value without calling `compute`.
    func value(orCompute compute: () -> Value) -> Value {
        condition.lock()
        while true {
            if let value {
                condition.unlock()
                return value
            }
            if !isComputing { break }
            condition.wait()
        }
        isComputing = true
        condition.unlock()
        let computed = compute()
        condition.lock()
        value = computed
        isComputing = false
        condition.broadcast()
        condition.unlock()
        return computed
    }

    /// The value when it has been computed, else nil; never waits.
    var computedValue: Value? {
        condition.lock()
        defer { condition.unlock() }
        return value
    }
}
