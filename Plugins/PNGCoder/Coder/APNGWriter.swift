import CPNGShim
import WebImageCoding

/// Writes an APNG: every frame is encoded by libpng as a whole PNG, and its image data is
/// moved into the animation (IDAT for the first frame, which is also the default image,
/// `fdAT` for the others). Frames cover the whole canvas, are drawn with blend "source"
/// and disposed to background, so each one shows exactly as given.
struct APNGWriter {
    let coder: PNGImageCoder

    /// The APNG of `frames`, written straight into memory from `allocator`.
    func write(_ frames: [AnimationFrame], loopCount: Int, allocator: PixelAllocator) throws -> EncodedImageData {
        guard let first = frames.first else { throw ImageCodingError(.invalidArgument, "no frames to encode") }
        guard frames.allSatisfy({ $0.image.width == first.image.width && $0.image.height == first.image.height })
        else { throw ImageCodingError(.invalidArgument, "every frame of an APNG must have the same size") }
        guard frames.allSatisfy({ $0.image.format == first.image.format }) else {
            throw ImageCodingError(.invalidArgument, "every frame of an APNG must have the same pixel format")
        }
        let keepsAlpha = frames.contains { $0.image.hasTranslucentPixels }
        let output = EncodedImageWriter(allocator: allocator)
        var sequence = 0
        for (index, frame) in frames.enumerated() {
            let png = try coder.encodePNG(frame.image, keepsAlpha: keepsAlpha)
            let chunks = PNGChunks(png)
            if index == 0 {
                try output.append(png.prefix(8))
                try output.append(chunks.raw("IHDR"))
                try Self.writeChunk(
                    "acTL", [Self.bigEndian(frames.count), Self.bigEndian(max(0, loopCount))], to: output)
            }
            try Self.writeChunk("fcTL", [Self.bigEndian(sequence), Self.frameControl(frame)], to: output)
            sequence += 1
            for data in chunks.payloads("IDAT") {
                if index == 0 {
                    try Self.writeChunk("IDAT", [data], to: output)
                } else {
                    try Self.writeChunk("fdAT", [Self.bigEndian(sequence), data], to: output)
                    sequence += 1
                }
            }
        }
        try Self.writeChunk("IEND", [], to: output)
        return try output.finish()
    }

    /// The fcTL fields after the sequence number: whole canvas, delay in milliseconds,
    /// dispose to background, blend source.
    static func frameControl(_ frame: AnimationFrame) -> [UInt8] {
        let delay = UInt16(clamping: max(0, frame.durationMilliseconds))
        return Self.bigEndian(frame.image.width) + Self.bigEndian(frame.image.height) + Self.bigEndian(0)
            + Self.bigEndian(0) + [UInt8(delay >> 8), UInt8(delay & 0xFF), 0x03, 0xE8, 1, 0]
    }

    /// Writes a chunk whose payload is `payload`'s parts one after the other, with its CRC.
    static func writeChunk(_ type: String, _ payload: [[UInt8]], to output: EncodedImageWriter) throws {
        let typeBytes = Array(type.utf8)
        var crc = typeBytes.withUnsafeBufferPointer { png_shim_crc32(0, $0.baseAddress!, $0.count) }
        try output.append(bigEndian(payload.reduce(0) { $0 + $1.count }))
        try output.append(typeBytes)
        for part in payload where !part.isEmpty {
            try output.append(part)
            crc = part.withUnsafeBufferPointer { png_shim_crc32(crc, $0.baseAddress!, $0.count) }
        }
        try output.append(bigEndian(Int(crc)))
    }

    /// A chunk as bytes: length, type, `payload`, CRC.
    static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + payload
        let crc = body.withUnsafeBufferPointer { png_shim_crc32(0, $0.baseAddress!, $0.count) }
        return bigEndian(payload.count) + body + bigEndian(Int(crc))
    }

    static func bigEndian(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }
}

/// The chunks of a PNG that libpng just wrote (well formed by construction).
struct PNGChunks {
    private var chunks: [(type: String, raw: ArraySlice<UInt8>, payload: ArraySlice<UInt8>)] = []

    init(_ png: [UInt8]) {
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let end = offset + 12 + length
            guard end <= png.count else { break }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            chunks.append((type, png[offset..<end], png[(offset + 8)..<(end - 4)]))
            offset = end
        }
    }

    /// The first chunk of `type` as stored (length, type, payload, CRC).
    func raw(_ type: String) -> [UInt8] {
        chunks.first { $0.type == type }.map { Array($0.raw) } ?? []
    }

    /// The payloads of every chunk of `type`, in order.
    func payloads(_ type: String) -> [[UInt8]] {
        chunks.filter { $0.type == type }.map { Array($0.payload) }
    }
}
