/// Encoded image bytes in memory this value owns: a pointer, a byte count and the function
/// that frees the memory when the last reference goes.
///
/// Coders return it so that the bytes an encoder wrote (into memory from the host's allocator,
/// or a native library's own buffer) reach the caller without being copied into an array on
/// the way. The bytes never change after creation, which is what makes it `Sendable`.
///
/// When the memory came from a known ``PixelAllocator`` (``init(taking:count:allocator:)``),
/// ``detach(ifAllocatedBy:)`` hands it to that allocator's owner without a copy: this is how
/// a plugin returns the bytes its encoder wrote into the host's memory.
public final class EncodedImageData: @unchecked Sendable {
    private let start: UnsafeMutableRawPointer
    private let release: @Sendable (UnsafeMutableRawPointer) -> Void
    /// The allocator the memory came from, when known.
    private let allocator: PixelAllocator?
    /// True until ``detach(ifAllocatedBy:)`` hands the memory over; read by `deinit`.
    private let ownsMemory = TrackedMutex(true)
    /// Number of encoded bytes.
    public let count: Int

    /// Takes ownership of `count` bytes at `pointer`; `deallocate` frees them once this value
    /// is gone.
    public init(
        taking pointer: UnsafeMutableRawPointer, count: Int,
        deallocate: @escaping @Sendable (UnsafeMutableRawPointer) -> Void
    ) {
        start = pointer
        release = deallocate
        allocator = nil
        self.count = count
    }

    /// Takes ownership of `count` bytes at `pointer`, a block from `allocator` (which frees
    /// it once this value is gone, unless ``detach(ifAllocatedBy:)`` handed it over).
    public init(taking pointer: UnsafeMutableRawPointer, count: Int, allocator: PixelAllocator) {
        start = pointer
        release = allocator.deallocate
        self.allocator = allocator
        self.count = count
    }

    /// A copy of `bytes` in memory from `allocator` (default ``PixelAllocator/system``), for
    /// coders whose output is in a Swift array or a native library's own buffer.
    public convenience init(
        copying bytes: some Collection<UInt8>, allocator: PixelAllocator = .system
    ) throws(ImageCodingError) {
        guard let memory = allocator.allocate(Swift.max(bytes.count, 1), 16) else {
            throw ImageCodingError(.outOfMemory, "could not allocate \(bytes.count) bytes for the encoded image")
        }
        let buffer = UnsafeMutableRawBufferPointer(start: memory, count: bytes.count)
        buffer.copyBytes(from: bytes)
        self.init(taking: memory, count: bytes.count, allocator: allocator)
    }

    deinit {
        if ownsMemory.withLock({ $0 }) { release(start) }
    }

    /// Whether the memory is a block from `allocator`.
    public func isAllocated(by allocator: PixelAllocator) -> Bool {
        self.allocator == allocator
    }

    /// Gives up ownership when the memory is a block from `allocator`: the caller then frees
    /// the returned pointer with that allocator, and must not read this value after it is
    /// released. Returns nil (and keeps ownership) for memory from anywhere else.
    ///
    /// Ownership can be handed over once; a second call is a programming error and traps.
    public func detach(ifAllocatedBy allocator: PixelAllocator) -> UnsafeMutableRawPointer? {
        guard isAllocated(by: allocator) else { return nil }
        let wasOwner = ownsMemory.withLock { owns in
            defer { owns = false }
            return owns
        }
        precondition(wasOwner, "the bytes of this encoded image were already detached")
        return start
    }

    /// Calls `body` with the encoded bytes; they are valid only during the call.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// A copy of the bytes as an array.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}

extension EncodedImageData: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "index \(position) out of 0..<\(count)")
        return start.load(fromByteOffset: position, as: UInt8.self)
    }
}

extension EncodedImageData: Equatable {
    /// Equal when the bytes are equal.
    public static func == (lhs: EncodedImageData, rhs: EncodedImageData) -> Bool {
        lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in left.elementsEqual(right) } }
    }
}
