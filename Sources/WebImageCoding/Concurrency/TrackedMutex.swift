import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A `Synchronization.Mutex` whose hand-over ThreadSanitizer sees.
///
/// On Linux, `Mutex` passes a contended lock from one thread to the next in the kernel (a
/// priority-inheriting futex, in a library TSan does not instrument), so a TSan build reports
/// the accesses of two threads inside `withLock` as a race (docs/sanitizers.md has a
/// reproducer). This type tells TSan about the order itself: `__tsan_acquire` when a
/// critical section starts and `__tsan_release` when it ends, on an address that is this
/// lock's own. Outside a TSan run both functions are absent: the lock has no identity object
/// and each critical section costs one test of a nil reference more than a `Mutex`'s.
///
/// Every module of the package (the tests too) takes it in place of `Mutex`, so that a TSan
/// run reports real races only.
///
/// Public and `@inlinable` so that every module's calls are specialized for their state and
/// inlined. Swift 6.3 does not inline a `package` function into another module even when it is
/// `@inlinable`: each call then went through the unspecialized generic `withLock`, which looks
/// up the metadata of `Mutex<State>` at run time (a hash-table search), boxes its closure's
/// result and cannot inline the critical section. That cost the image manager about 47,000
/// instructions an image (callgrind, docs/performance.md).
public struct TrackedMutex<Value: ~Copyable>: ~Copyable, Sendable {
    @usableFromInline let mutex: Mutex<Value>
    /// Its address names the lock to TSan; nil when the process does not run under TSan.
    @usableFromInline let identity: LockIdentity?

    @inlinable public init(_ value: consuming sending Value) {
        mutex = Mutex(value)
        identity = ThreadSanitizerAnnotations.isAvailable ? LockIdentity() : nil
    }

    /// `Mutex.withLock`, with the critical section made visible to ThreadSanitizer.
    @inlinable public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        guard let identity else { return try mutex.withLock(body) }
        let address = UnsafeRawPointer(Unmanaged.passUnretained(identity).toOpaque())
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            ThreadSanitizerAnnotations.acquire(address)
            defer { ThreadSanitizerAnnotations.release(address) }
            return try body(&value)
        }
    }
}

/// An object whose only use is its address.
@usableFromInline final class LockIdentity: Sendable {
    @usableFromInline init() {}
}

/// The TSan runtime's annotation entry points, found at run time: present only when the
/// process runs with ThreadSanitizer (its executables export them; see `make tsan`).
@usableFromInline enum ThreadSanitizerAnnotations {
    private typealias Annotation = @convention(c) (UnsafeRawPointer) -> Void

    private static let acquireFunction = lookup("__tsan_acquire")
    private static let releaseFunction = lookup("__tsan_release")

    /// Whether the process runs under ThreadSanitizer (both entry points were found).
    @usableFromInline static let isAvailable = acquireFunction != nil && releaseFunction != nil

    /// Tells TSan that what was released on `address` happens before what follows.
    @usableFromInline static func acquire(_ address: UnsafeRawPointer) { acquireFunction?(address) }
    /// Tells TSan that what came before is released on `address`.
    @usableFromInline static func release(_ address: UnsafeRawPointer) { releaseFunction?(address) }

    private static func lookup(_ name: String) -> Annotation? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: Annotation.self)
    }
}
