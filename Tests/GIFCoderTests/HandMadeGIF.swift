/// A GIF written byte by byte: a 256-colour global table, frames with their own position,
/// size, disposal and transparent index, each frame's LZW data uncompressed (a clear code
/// every 254 literals, so codes stay 9 bits wide).
struct HandMadeGIF {
    struct Frame {
        var left = 0, top = 0, width: Int, height: Int
        /// GIF disposal method: 0 unspecified, 1 none, 2 background, 3 previous.
        var disposal = 1
        var transparentIndex: UInt8?
        /// Colour indices, row by row (`width` × `height`).
        var indices: [UInt8]
        /// Pixels written before the LZW end code; nil writes them all.
        var pixelsBeforeEnd: Int?
    }

    var width: Int, height: Int
    var frames: [Frame]

    /// Colour `index` of the global table: distinct for every index.
    static func color(_ index: Int) -> [UInt8] { [UInt8(index), UInt8(255 - index), UInt8((index * 7) & 0xFF)] }

    var bytes: [UInt8] {
        var out = Array("GIF89a".utf8) + Self.le16(width) + Self.le16(height) + [0xF7, 0, 0]
        for index in 0..<256 { out += Self.color(index) }
        for frame in frames {
            let packed = UInt8(frame.disposal << 2) | (frame.transparentIndex == nil ? 0 : 1)
            out += [0x21, 0xF9, 4, packed, 10, 0, frame.transparentIndex ?? 0, 0]
            out += [0x2C] + Self.le16(frame.left) + Self.le16(frame.top) + Self.le16(frame.width)
            out += Self.le16(frame.height) + [0, 8]
            let data = Self.uncompressedLZW(Array(frame.indices.prefix(frame.pixelsBeforeEnd ?? frame.indices.count)))
            for start in stride(from: 0, to: data.count, by: 255) {
                let block = data[start..<min(start + 255, data.count)]
                out += [UInt8(block.count)] + block
            }
            out += [0]
        }
        return out + [0x3B]
    }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    /// 9-bit codes: clear, the literals, end.
    private static func uncompressedLZW(_ indices: [UInt8]) -> [UInt8] {
        var codes = [256]
        for (position, index) in indices.enumerated() {
            if position > 0 && position % 254 == 0 { codes.append(256) }
            codes.append(Int(index))
        }
        return packed(codes + [257], bits: 9)
    }

    /// LZW `codes` of `bits` bits each, packed least significant bit first as GIF stores them.
    static func packed(_ codes: [Int], bits width: Int) -> [UInt8] {
        var out: [UInt8] = []
        var accumulator = 0
        var bits = 0
        for code in codes {
            accumulator |= code << bits
            bits += width
            while bits >= 8 {
                out.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { out.append(UInt8(accumulator)) }
        return out
    }
}
