import CReferenceDecoders
import CWebPShim
import Foundation
import WebImageCore
import WebPCoder

/// The source patterns of `make-fixtures.sh` and of the encoder tests.
enum Pattern {
    static let width = 61
    static let height = 43

    /// The opaque RGB pattern: (x * 4, y * 5, (x + y) * 2 + 40, 255).
    static func rgb(x: Int, y: Int) -> [Int] { [x * 4 % 256, y * 5 % 256, ((x + y) * 2 + 40) % 256, 255] }

    /// The RGB pattern with alpha (x * 3 + y * 2) % 256.
    static func rgba(x: Int, y: Int) -> [Int] { Array(rgb(x: x, y: y).prefix(3)) + [(x * 3 + y * 2) % 256] }

    /// Packed RGBA8 bytes of a pattern.
    static func bytes(width: Int = width, height: Int = height, _ pixel: (Int, Int) -> [Int]) -> [UInt8] {
        (0..<height).flatMap { y in (0..<width).flatMap { x in pixel(x, y).map { UInt8($0) } } }
    }

    /// A buffer holding a pattern.
    static func buffer(width: Int = width, height: Int = height, _ pixel: (Int, Int) -> [Int]) throws -> PixelBuffer {
        let buffer = try PixelBuffer(width: width, height: height, format: .rgba8)
        let packed = bytes(width: width, height: height, pixel)
        packed.withUnsafeBytes { buffer.baseAddress.copyMemory(from: $0.baseAddress!, byteCount: packed.count) }
        return buffer
    }
}

/// libwebp's own decoders, called directly through ``CReferenceDecoders``.
enum Reference {
    struct Failure: Error {}

    /// `WebPDecodeRGBAInto` at full size, packed RGBA8.
    static func decode(_ bytes: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let status = pixels.withUnsafeMutableBytes { output in
            reference_webp_decode(bytes, bytes.count, output.baseAddress!, output.count)
        }
        guard status == REFERENCE_OK else { throw Failure() }
        return pixels
    }

    /// `WebPAnimDecoder`'s canvas of frame `index` and its end timestamp in milliseconds.
    static func animationFrame(_ bytes: [UInt8], index: Int, width: Int, height: Int) throws -> (
        pixels: [UInt8], timestamp: Int
    ) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var timestamp: Int32 = 0
        let status = pixels.withUnsafeMutableBytes { output in
            reference_webp_animation_frame(
                bytes, bytes.count, UInt32(index), output.baseAddress!, output.count, &timestamp)
        }
        guard status == REFERENCE_OK else { throw Failure() }
        return (pixels, Int(timestamp))
    }
}

extension WebPImageCoder {
    /// ``decode(_:request:)`` for an array of bytes.
    func decode(_ bytes: [UInt8], request: DecodeRequest = DecodeRequest()) throws -> DecodedImage {
        try bytes.withUnsafeBytes { try decode($0, request: request) }
    }

    /// ``probe(_:)`` for an array of bytes.
    func probe(_ bytes: [UInt8]) throws -> ImageInfo {
        try bytes.withUnsafeBytes { try probe($0) }
    }
}

/// A pixel allocator that counts the bytes asked of it (to show what a decode allocates).
final class CountingAllocator: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0

    /// Bytes allocated so far.
    var allocatedBytes: Int { lock.withLock { total } }

    /// The allocator to pass in a ``DecodeRequest``: the system allocator, counted.
    var allocator: PixelAllocator {
        PixelAllocator(
            allocate: { [self] byteCount, alignment in
                lock.withLock { total += byteCount }
                return PixelAllocator.system.allocate(byteCount, alignment)
            },
            deallocate: { PixelAllocator.system.deallocate($0) })
    }
}
