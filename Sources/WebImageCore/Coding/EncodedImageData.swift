/// Encoded image bytes in memory this value owns: a pointer, a byte count and the function
/// that frees the memory when the last reference goes.
///
/// Coders return it so that the bytes an encoder wrote (into memory from the host's allocator,
/// or a native library's own buffer) reach the caller without being copied into an array on
/// the way. The bytes never change after creation, which is what makes it `Sendable`.
public final class EncodedImageData: @unchecked Sendable {
    private let start: UnsafeMutableRawPointer
    private let release: @Sendable (UnsafeMutableRawPointer) -> Void
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
        self.count = count
    }

    /// A copy of `bytes` in memory from ``PixelAllocator/system`` (for coders that build
    /// their output in Swift arrays).
    public convenience init(copying bytes: some Collection<UInt8>) throws(ImageCodingError) {
        let allocator = PixelAllocator.system
        guard let memory = allocator.allocate(Swift.max(bytes.count, 1), 16) else {
            throw ImageCodingError(.outOfMemory, "could not allocate \(bytes.count) bytes for the encoded image")
        }
        let buffer = UnsafeMutableRawBufferPointer(start: memory, count: bytes.count)
        buffer.copyBytes(from: bytes)
        self.init(taking: memory, count: bytes.count, deallocate: allocator.deallocate)
    }

    deinit {
        release(start)
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
