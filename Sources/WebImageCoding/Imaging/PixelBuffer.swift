/// A block of pixels that owns its memory.
///
/// Rows are `bytesPerRow` apart; the first row is the top of the image. The memory is
/// freed with the allocator it came from when the buffer is released, unless
/// ``detach()`` handed it to someone else (the plugin kit does this to return pixels
/// through the C ABI).
///
/// Sharing a buffer between threads is safe: every stored property is a constant except
/// the ownership flag, which a mutex guards. The pixels themselves are written by whoever
/// fills a new buffer (a decoder, a resizer) before handing it on, and only read after that.
public final class PixelBuffer: Sendable {
    /// Alignment of the first byte, in bytes.
    public static let alignment = 64

    public let width: Int
    public let height: Int
    public let format: PixelFormat
    /// Bytes from the start of one row to the next.
    public let bytesPerRow: Int
    /// The first byte of the top row.
    ///
    /// `nonisolated(unsafe)` because raw pointers are not `Sendable`: the address never
    /// changes, and the pixels follow the fill-then-share rule above.
    nonisolated(unsafe) public let baseAddress: UnsafeMutableRawPointer
    private let deallocate: (@Sendable (UnsafeMutableRawPointer) -> Void)?
    /// True until ``detach()`` hands the memory over; read by `deinit` to decide whether to free it.
    private let ownsMemory = TrackedMutex(true)

    /// Allocates an uninitialised buffer of `width` × `height` pixels with tightly packed rows.
    ///
    /// - Throws: ``ImageCodingError`` `.tooLarge` when the size overflows memory arithmetic,
    ///   `.outOfMemory` when the allocator fails.
    public init(width: Int, height: Int, format: PixelFormat, allocator: PixelAllocator = .system) throws {
        guard width > 0, height > 0 else {
            throw ImageCodingError(.invalidArgument, "an image needs a positive size, not \(width)×\(height)")
        }
        let (rowBytes, rowOverflow) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        let (totalBytes, totalOverflow) = rowBytes.multipliedReportingOverflow(by: height)
        guard !rowOverflow, !totalOverflow else {
            throw ImageCodingError(.tooLarge, "\(width)×\(height) pixels do not fit in memory")
        }
        guard let memory = allocator.allocate(totalBytes, Self.alignment) else {
            throw ImageCodingError(.outOfMemory, "could not allocate \(totalBytes) bytes for \(width)×\(height) pixels")
        }
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = rowBytes
        self.baseAddress = memory
        self.deallocate = allocator.deallocate
    }

    /// Takes ownership of memory that was allocated elsewhere.
    ///
    /// - Parameter deallocate: called once with `baseAddress` when the buffer is released;
    ///   nil when the memory is borrowed and outlives the buffer.
    public init(
        adopting baseAddress: UnsafeMutableRawPointer,
        width: Int,
        height: Int,
        bytesPerRow: Int,
        format: PixelFormat,
        deallocate: (@Sendable (UnsafeMutableRawPointer) -> Void)?
    ) {
        precondition(width > 0 && height > 0 && bytesPerRow >= width * format.bytesPerPixel)
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = bytesPerRow
        self.baseAddress = baseAddress
        self.deallocate = deallocate
    }

    deinit {
        if ownsMemory.withLock({ $0 }) { deallocate?(baseAddress) }
    }

    /// Gives up ownership: the caller becomes responsible for freeing `baseAddress`
    /// with the allocator it came from. The buffer stays readable until it is released.
    ///
    /// Ownership can be handed over once; a second call is a programming error and traps.
    public func detach() -> UnsafeMutableRawPointer {
        let wasOwner = ownsMemory.withLock { owns in
            defer { owns = false }
            return owns
        }
        precondition(wasOwner, "the pixels of this buffer were already detached")
        return baseAddress
    }

    /// The first byte of row `y` (0 = top).
    @inlinable
    public func row(_ y: Int) -> UnsafeMutableRawPointer {
        baseAddress + y * bytesPerRow
    }

    /// The bytes of all rows, including any padding at the end of each row.
    public var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: baseAddress, count: bytesPerRow * height)
    }

    /// The channels of the pixel at (`x`, `y`), widened to `Int`. For tests and tools, not for loops.
    public func channels(x: Int, y: Int) -> [Int] {
        precondition(x >= 0 && x < width && y >= 0 && y < height)
        switch format {
        case .rgba8:
            let pixel = row(y).assumingMemoryBound(to: UInt8.self) + x * 4
            return (0..<4).map { Int(pixel[$0]) }
        case .rgba16:
            let pixel = (row(y) + x * 8).assumingMemoryBound(to: UInt16.self)
            return (0..<4).map { Int(pixel[$0]) }
        }
    }

    /// Tightly packed pixel bytes, row after row (a copy, for comparisons and tools).
    public func packedBytes() -> [UInt8] {
        let rowBytes = width * format.bytesPerPixel
        var result = [UInt8](repeating: 0, count: rowBytes * height)
        result.withUnsafeMutableBytes { destination in
            for y in 0..<height {
                (destination.baseAddress! + y * rowBytes).copyMemory(from: row(y), byteCount: rowBytes)
            }
        }
        return result
    }
}
