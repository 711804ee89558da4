/// Bytes read through one pointer for as long as this object lives, without copying the
/// array they come from: an animation source keeps the file this way while its frames decode.
///
/// A native Swift array's storage is one heap object that never moves while the array is
/// held and not mutated; this object holds it in a `let`, so the address taken at `init`
/// stays valid until `deinit`. On Linux arrays are always native (no bridged storage).
public final class PinnedBytes: @unchecked Sendable {
    /// The bytes; empty (with a nil base address) for an empty array.
    public let buffer: UnsafeRawBufferPointer
    /// The array whose storage `buffer` points into, or nil for a copy this object owns.
    private let array: [UInt8]?

    /// Pins `array`'s storage (no copy).
    public init(_ array: [UInt8]) {
        self.array = array
        buffer = array.withUnsafeBytes { $0 }
    }

    /// Copies `bytes` into storage this object owns (for bytes that will change or go away).
    public init(copying bytes: UnsafeRawBufferPointer) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        copy.copyMemory(from: bytes)
        array = nil
        buffer = UnsafeRawBufferPointer(copy)
    }

    deinit {
        if array == nil { buffer.deallocate() }
    }
}
