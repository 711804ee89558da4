/// Small files whose headers declare huge images, built byte by byte (never committed):
/// the "bombs" the decode limits are tested with, by ``CoderVerifier``'s hostile-input
/// checks and by the tests.
public enum HostileImages {
    /// A PNG whose IHDR declares `width` × `height` RGBA8 pixels, followed by a tiny IDAT
    /// (one zlib stream of a single zero byte) and IEND: 62 bytes whatever the size.
    public static func png(width: UInt32, height: UInt32) -> [UInt8] {
        var ihdr = bigEndian(width) + bigEndian(height)
        ihdr += [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", ihdr)
            + pngChunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00]) + pngChunk("IEND", [])
    }

    /// A complete, valid 8-bit grayscale PNG of `width` × `height` black pixels whose
    /// deflate stream repeats one 258-byte match (fixed Huffman codes, 13 bits a match): a
    /// 9999 × 9999 image is 630,087 bytes and decodes to 400 MB of RGBA8. `seed` (0-255)
    /// changes one byte of an ancillary chunk, so files of the same size can differ.
    public static func blankPNG(width: UInt32, height: UInt32, seed: UInt8 = 0) -> [UInt8] {
        let rawByteCount = (Int(width) + 1) * Int(height)  // a filter byte before each row
        var bits = DeflateBits()
        bits.write(0b1, count: 1)  // BFINAL
        bits.write(0b01, count: 2)  // BTYPE 01: fixed Huffman codes
        bits.writeCode(0x30, length: 8)  // the literal 0
        var remaining = rawByteCount - 1
        while remaining >= 258 {
            bits.writeCode(0xC5, length: 8)  // length code 285: 258 bytes
            bits.writeCode(0, length: 5)  // distance code 0: distance 1
            remaining -= 258
        }
        for _ in 0..<remaining { bits.writeCode(0x30, length: 8) }
        bits.writeCode(0, length: 7)  // end of block
        // Adler-32 of zeros only: A stays 1, B adds 1 per byte.
        let adler = (UInt32(rawByteCount % 65_521) << 16) | 1
        let zlib = [0x78, 0x01] + bits.bytes + bigEndian(adler)
        var ihdr = bigEndian(width) + bigEndian(height)
        ihdr += [8, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", ihdr)
            + pngChunk("tEXt", Array("Comment".utf8) + [0, seed]) + pngChunk("IDAT", zlib) + pngChunk("IEND", [])
    }

    /// Bits in deflate's order: each byte filled from its least significant bit.
    private struct DeflateBits {
        var bytes: [UInt8] = []
        private var bitCount = 0

        /// Writes the `count` low bits of `value`, least significant first (header fields).
        mutating func write(_ value: Int, count: Int) {
            for index in 0..<count { append(bit: (value >> index) & 1) }
        }

        /// Writes a Huffman code of `length` bits, most significant first.
        mutating func writeCode(_ code: Int, length: Int) {
            for index in stride(from: length - 1, through: 0, by: -1) { append(bit: (code >> index) & 1) }
        }

        private mutating func append(bit: Int) {
            if bitCount % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8(bit) << (bitCount % 8)
            bitCount += 1
        }
    }

    /// A GIF89a with a `width` × `height` logical screen, a two-colour palette, a loop
    /// extension and `frames` frames of one pixel each (100 ms): 2,339 bytes for 100 frames.
    public static func gif(width: UInt16, height: UInt16, frames: Int) -> [UInt8] {
        var bytes = Array("GIF89a".utf8) + littleEndian16(width) + littleEndian16(height) + [0x80, 0, 0]
        bytes += [0, 0, 0, 0xFF, 0xFF, 0xFF]
        bytes += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
        for _ in 0..<frames {
            bytes += [0x21, 0xF9, 0x04, 0x00, 0x0A, 0x00, 0x00, 0x00]
            bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0]
            bytes += [0x02, 0x02, 0x44, 0x01, 0x00]
        }
        return bytes + [0x3B]
    }

    /// Byte offset where frame `index` (0-based) of ``gif(width:height:frames:)`` starts.
    public static func gifFrameOffset(_ index: Int) -> Int { 13 + 6 + 19 + index * 23 }

    /// An animated WebP (VP8X + ANIM) with a `width` × `height` canvas and `frames` ANMF
    /// frames, each a 1×1 lossless (VP8L) transparent pixel at the origin for 100 ms:
    /// 46,044 bytes for 1,000 frames.
    public static func webp(width: UInt32, height: UInt32, frames: Int) -> [UInt8] {
        let pixel: [UInt8] = [0x2F, 0x00, 0x00, 0x00, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xFE, 0x07]
        let frame = riffChunk(
            "ANMF",
            littleEndian24(0) + littleEndian24(0) + littleEndian24(0) + littleEndian24(0)
                + littleEndian24(100) + [0] + riffChunk("VP8L", pixel))
        var body = Array("WEBP".utf8)
        body += riffChunk("VP8X", [0x12, 0, 0, 0] + littleEndian24(width - 1) + littleEndian24(height - 1))
        body += riffChunk("ANIM", [0, 0, 0, 0, 0, 0])
        for _ in 0..<frames { body += frame }
        return Array("RIFF".utf8) + littleEndian32(UInt32(body.count)) + body
    }

    private static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func riffChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        Array(type.utf8) + littleEndian32(UInt32(data.count)) + data + (data.count % 2 == 1 ? [0] : [])
    }

    /// The CRC-32 of PNG chunks (ISO 3309, reflected, polynomial 0xEDB88320).
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func littleEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    private static func littleEndian24(_ value: UInt32) -> [UInt8] { Array(littleEndian32(value).prefix(3)) }

    private static func littleEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }
}
