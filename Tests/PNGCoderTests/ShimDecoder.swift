import CPNGShim

/// Full-size decodes straight through the C shim with a chosen ``png_shim_decoder``, so
/// tests can compare the libdeflate fast path with libpng's reader.
enum ShimDecoder {
    /// A decoded image: rows packed without padding (RGBA8, or RGBA16 native endian).
    struct Image: Equatable {
        var pixels: [UInt8]
        /// Whether the libdeflate fast path produced the pixels.
        var usedFastPath: Bool
    }

    /// A failed shim call: its status and message.
    struct Failure: Error, Equatable {
        var status: webimage_status
        var message: String
    }

    /// Bytes of the message buffer handed to the shim.
    static let messageCapacity = 256

    /// Decodes `bytes` (RGBA16 when `sixteen` and the source has 16-bit samples) with
    /// `decoder`, writing rows `padding` bytes further apart than packed rows.
    static func decode(
        _ bytes: [UInt8], sixteen: Bool = false, decoder: png_shim_decoder, padding: Int = 0
    ) -> Result<Image, Failure> {
        var message = [CChar](repeating: 0, count: messageCapacity)
        return message.withUnsafeMutableBufferPointer { buffer in
            var error = webimage_error(message: buffer.baseAddress!, message_capacity: messageCapacity)
            func failure(_ status: webimage_status) -> Result<Image, Failure> {
                .failure(Failure(status: status, message: String(cString: buffer.baseAddress!)))
            }
            var reader: OpaquePointer?
            var header = png_shim_header()
            var sixteenOutput: Int32 = 0
            let opened = bytes.withUnsafeBufferPointer {
                png_shim_open($0.baseAddress!, $0.count, sixteen, &reader, &header, &sixteenOutput, &error)
            }
            defer { png_shim_close(reader) }
            guard opened == WEBIMAGE_STATUS_OK, let reader else { return failure(opened) }
            let rowBytes = Int(header.width) * (sixteenOutput != 0 ? 8 : 4)
            let stride = rowBytes + padding
            var canvas = [UInt8](repeating: 0xA5, count: stride * Int(header.height))
            var usedFastPath: Int32 = 0
            let status = canvas.withUnsafeMutableBytes {
                png_shim_read_image_using(reader, $0.baseAddress!, stride, decoder, &usedFastPath, &error)
            }
            guard status == WEBIMAGE_STATUS_OK else { return failure(status) }
            let packed = (0..<Int(header.height)).flatMap { canvas[($0 * stride)..<($0 * stride + rowBytes)] }
            return .success(Image(pixels: packed, usedFastPath: usedFastPath != 0))
        }
    }

    /// The data length of the chunk whose length field is at `offset`.
    static func chunkLength(_ bytes: [UInt8], at offset: Int) -> Int {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Offsets (of the length field) of the chunks of `type` in a PNG file.
    static func chunkOffsets(_ bytes: [UInt8], type: String) -> [Int] {
        var offsets: [Int] = []
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = chunkLength(bytes, at: offset)
            if Array(bytes[(offset + 4)..<(offset + 8)]) == Array(type.utf8) { offsets.append(offset) }
            offset += length + 12
        }
        return offsets
    }

    /// `bytes` with the CRC of the chunk at `offset` recomputed (after its data was changed).
    static func withFixedCRC(_ bytes: [UInt8], chunkAt offset: Int) -> [UInt8] {
        var fixed = bytes
        let length = chunkLength(bytes, at: offset)
        let crc = bytes.withUnsafeBufferPointer { png_shim_crc32(0, $0.baseAddress! + offset + 4, length + 4) }
        for i in 0..<4 { fixed[offset + 8 + length + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * i)) }
        return fixed
    }
}
