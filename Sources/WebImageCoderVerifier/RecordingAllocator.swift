import WebImageCore

/// A ``PixelAllocator`` that remembers the blocks it handed out and has not had back, for
/// tests that check where a coder puts its output: for example that an encoder writes
/// straight into the allocator of its request, so that a plugin hands the bytes to the host
/// without a copy.
public struct RecordingAllocator: Sendable {
    /// The allocator to give the code under test; its blocks come from ``PixelAllocator/system``.
    public let allocator: PixelAllocator
    private let ledger: Ledger

    /// - Parameter byteLimit: a request over this many bytes is recorded and refused (answered
    ///   with nil, as a host over its memory budget answers) instead of allocated; default nil,
    ///   no limit.
    public init(refusingRequestsOver byteLimit: Int? = nil) {
        let ledger = Ledger()
        self.ledger = ledger
        allocator = PixelAllocator(
            allocate: { byteCount, alignment in
                ledger.record(requested: byteCount)
                if let byteLimit, byteCount > byteLimit { return nil }
                let block = PixelAllocator.system.allocate(byteCount, alignment)
                if let block { ledger.record(allocated: block) }
                return block
            },
            deallocate: { pointer in
                ledger.record(freed: pointer)
                PixelAllocator.system.deallocate(pointer)
            })
    }

    /// Addresses of the blocks allocated and not yet freed.
    public var liveBlocks: Set<UInt> { ledger.state.withLock { $0.live } }

    /// Number of blocks allocated so far, freed or not.
    public var allocationCount: Int { ledger.state.withLock { $0.allocations } }

    /// The largest block asked for so far, in bytes (whether or not it could be allocated).
    public var largestRequest: Int { ledger.state.withLock { $0.largestRequest } }

    /// Whether `encoded` holds the only live block of this allocator: the coder wrote its
    /// output into this allocator's memory and handed that very block back, with nothing
    /// else left allocated.
    public func holdsOnly(_ encoded: EncodedImageData) -> Bool {
        let address = encoded.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        return encoded.isAllocated(by: allocator) && liveBlocks == [address]
    }

    /// What the allocator's functions record.
    private final class Ledger: Sendable {
        struct State {
            var live: Set<UInt> = []
            var allocations = 0
            var largestRequest = 0
        }

        let state = TrackedMutex(State())

        func record(requested byteCount: Int) {
            state.withLock { $0.largestRequest = max($0.largestRequest, byteCount) }
        }

        func record(allocated block: UnsafeMutableRawPointer) {
            state.withLock {
                $0.live.insert(UInt(bitPattern: block))
                $0.allocations += 1
            }
        }

        func record(freed block: UnsafeMutableRawPointer) {
            _ = state.withLock { $0.live.remove(UInt(bitPattern: block)) }
        }
    }
}
